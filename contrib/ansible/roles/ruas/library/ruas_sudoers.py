#!/usr/bin/python
# SPDX-License-Identifier: ISC
# ruas_sudoers.py - the supervisor's sudoers fragment, by ruas-setup install when it differs.
"""Ansible module ruas_sudoers: ruas-setup install --config, run only when it would change."""

import os
import re
import sys

from ansible.module_utils.basic import AnsibleModule
try:
    from ansible.module_utils.ruas_common import read_regular, root_only, run_or_fail, write_temp
except ImportError:  # ansible-lint loads a module alone, without the role's module_utils
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'module_utils'))
    from ruas_common import (  # pylint: disable=import-error
        read_regular, root_only, run_or_fail, write_temp)

DOCUMENTATION = r'''
module: ruas_sudoers
short_description: Install the supervisor's sudoers fragment with ruas-setup install
description:
  - The fragment that C(ruas-setup sudoers --config) gives for the new configuration
    (I(config_content), in a private copy, so that the live configuration changes only
    after the fragment is in place) is compared with the installed one; only when they
    differ (bytes, or not 0440 root:root) does C(ruas-setup install --config) replace it,
    validated by visudo and the library's checks and rolled back by ruas-setup on failure,
    whose message then fails the task.
  - With no target at all the fragment is removed (ruas-setup has nothing to install).
  - Check mode and diff mode show the fragment's change.
options:
  supervisor: {description: The supervisor., type: str, required: true}
  config_content: {description: The new configuration's text., type: str, required: true}
  targets: {description: "The distinct run_as_users of the projects (none: no fragment).",
            type: list, elements: str, default: []}
  ruas_setup: {description: The ruas-setup program., type: str, required: true}
  sudoers_dir: {description: The sudoers directory., type: str, default: /etc/sudoers.d}
  name: {description: "The fragment's file name (default ruas-SUPERVISOR).", type: str}
'''

EXAMPLES = r'''
- name: The supervisor's fragment for a configuration
  ruas_sudoers:
    supervisor: orchestrator
    config_content: "{{ rendered.content }}"
    targets: [web-agent]
    ruas_setup: /usr/sbin/ruas-setup
'''

RETURN = r'''
path:
  description: The fragment.
  returned: success
  type: str
  sample: /etc/sudoers.d/ruas-orchestrator
stdout:
  description: What ruas-setup install printed.
  returned: when the fragment was installed
  type: str
stderr:
  description: What ruas-setup install said.
  returned: when the fragment was installed
  type: str
'''


def main():
    module = AnsibleModule(argument_spec=dict(
        supervisor=dict(type='str', required=True),
        config_content=dict(type='str', required=True),
        targets=dict(type='list', elements='str', default=[]),
        ruas_setup=dict(type='str', required=True),
        sudoers_dir=dict(type='str', default='/etc/sudoers.d'),
        name=dict(type='str')), supports_check_mode=True)
    p = module.params
    name = p['name'] or 'ruas-' + p['supervisor']
    # ruas-setup's rule for --name, before the name makes a path (it may be removed below).
    if not re.match(r'^[A-Za-z0-9_-]+\Z', name) or not p['sudoers_dir'].startswith('/'):
        module.fail_json(msg='fragment name %r must match ^[A-Za-z0-9_-]+$ (sudo skips names '
                         'with a dot) and ruas_sudoers_dir be absolute' % name)
    path = os.path.join(p['sudoers_dir'], name)
    common = ['--supervisor', p['supervisor'], '--sudoers-dir', p['sudoers_dir'], '--name', name]
    old, st = read_regular(path)
    if not p['targets']:
        result = dict(changed=st is not None, path=path,
                      diff=dict(before=old or '', after='', before_header=path, after_header=path))
        if st is not None and not module.check_mode:
            os.unlink(path)
        module.exit_json(msg='no project has a run_as_user: no fragment', **result)
    # The names and every target are judged here, in check mode too.
    config = write_temp(module.tmpdir, p['config_content'], 0o644)
    want, _ = run_or_fail(module, [p['ruas_setup'], 'sudoers'] + common[:2] + ['--config', config],
                          'ruas-setup sudoers')
    result = dict(path=path, changed=old != want or not root_only(st, 0o440),
                  diff=dict(before=old or '', after=want, before_header=path, after_header=path))
    if not result['changed'] or module.check_mode:
        module.exit_json(**result)
    out, err = run_or_fail(module, [p['ruas_setup'], 'install'] + common + ['--config', config],
                           'ruas-setup install')
    module.exit_json(stdout=out, stderr=err, **result)


if __name__ == '__main__':
    main()
