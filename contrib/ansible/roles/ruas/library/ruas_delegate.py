#!/usr/bin/python
# SPDX-License-Identifier: ISC
# ruas_delegate.py - the supervisor's systemd drop-in, by ruas-setup delegate --install when it differs.
"""Ansible module ruas_delegate: ruas-setup delegate --install, run only when it would change."""

import os
import sys

from ansible.module_utils.basic import AnsibleModule
try:
    from ansible.module_utils.ruas_common import read_regular, root_only, run_or_fail
except ImportError:  # ansible-lint loads a module alone, without the role's module_utils
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'module_utils'))
    from ruas_common import read_regular, root_only, run_or_fail  # pylint: disable=import-error

DOCUMENTATION = r'''
module: ruas_delegate
short_description: Install the supervisor's systemd drop-in with ruas-setup delegate
description:
  - The drop-in that C(ruas-setup delegate --unit UNIT) prints (a cgroup of the service's
    own for the runs' cgroup limits; ruas-setup(8), DELEGATE) is compared with the installed
    C(SYSTEMD_DIR/UNIT.d/ruas-delegate.conf); only when they differ (bytes, or not 0644
    root:root) does C(ruas-setup delegate --install) replace it.
  - It does not reload systemd nor restart the service (the role does not manage it);
    I(restart_needed) says when that is due, and I(next_steps) (also shown as a warning) what
    ruas-setup said to do.
  - Check mode and diff mode show the drop-in's change.
options:
  unit: {description: "The supervisor's systemd service (.service added when it has none).",
         type: str, required: true}
  ruas_setup: {description: The ruas-setup program., type: str, required: true}
  systemd_dir: {description: Where UNIT.d goes., type: str, default: /etc/systemd/system}
  systemd_version: {description: "systemd's major version (empty: what systemctl --version says).",
                    type: str, default: ''}
'''

EXAMPLES = r'''
- name: The drop-in of the supervisor's service
  ruas_delegate:
    unit: orchestrator
    ruas_setup: /usr/sbin/ruas-setup
'''

RETURN = r'''
path:
  description: The drop-in.
  returned: success
  type: str
  sample: /etc/systemd/system/orchestrator.service.d/ruas-delegate.conf
restart_needed:
  description: The drop-in changed, so systemd is to be reloaded and the service restarted.
  returned: success
  type: bool
next_steps:
  description: What ruas-setup delegate --install said to do next.
  returned: when the drop-in was written
  type: str
'''


def main():
    module = AnsibleModule(argument_spec=dict(
        unit=dict(type='str', required=True),
        ruas_setup=dict(type='str', required=True),
        systemd_dir=dict(type='str', default='/etc/systemd/system'),
        systemd_version=dict(type='str', default='')), supports_check_mode=True)
    p = module.params
    if not p['systemd_dir'].startswith('/'):
        module.fail_json(msg='ruas_systemd_dir must be absolute, not %r' % p['systemd_dir'])
    args = ['--unit', p['unit']]
    if p['systemd_version']:
        args += ['--systemd-version', p['systemd_version']]
    # ruas-setup judges the unit's name (and so the path below) before anything is read.
    want, _ = run_or_fail(module, [p['ruas_setup'], 'delegate'] + args, 'ruas-setup delegate')
    unit = p['unit'] if p['unit'].endswith('.service') else p['unit'] + '.service'
    path = os.path.join(p['systemd_dir'], unit + '.d', 'ruas-delegate.conf')
    old, st = read_regular(path)
    changed = old != want or not root_only(st, 0o644)
    result = dict(path=path, changed=changed, restart_needed=changed,
                  diff=dict(before=old or '', after=want, before_header=path, after_header=path))
    if not changed or module.check_mode:
        module.exit_json(**result)
    _, err = run_or_fail(module, [p['ruas_setup'], 'delegate'] + args +
                         ['--install', '--systemd-dir', p['systemd_dir']],
                         'ruas-setup delegate --install')
    # The role does not manage the service: what is due is said where the operator looks.
    module.warn('the drop-in of %s changed; ruas-setup says:\n%s' % (unit, err.strip()))
    module.exit_json(next_steps=err, **result)


if __name__ == '__main__':
    main()
