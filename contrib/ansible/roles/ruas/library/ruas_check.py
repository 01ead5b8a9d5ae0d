#!/usr/bin/python
# SPDX-License-Identifier: ISC
# ruas_check.py - ruas check --json as the supervisor; fails with the fatal findings' text.
"""Ansible module ruas_check: the startup checks as the supervisor, parsed, never by hand."""

import json
import os
import pwd
import re
import subprocess

from ansible.module_utils.basic import AnsibleModule

DOCUMENTATION = r'''
module: ruas_check
short_description: Run ruas check --json as the supervisor and fail on fatal findings
description:
  - Runs C(ruas check -c CONFIG --json) with the supervisor's uid, gid and groups and a
    clean environment, as a service manager would start the supervisor.
  - Fails when the report is not ok, with every fatal finding's project, check and message
    in the failure message; warnings are returned, and shown as Ansible warnings.
  - With I(unit), the supervisor's service (ruas_supervisor_unit), the check runs where the
    supervisor runs, in the leaf C(supervisor) of that service's cgroup (ruas-setup(8),
    DELEGATE), so that the cgroup limits are judged as the supervisor will meet them. When
    the service is not running in such a leaf (not restarted since its drop-in), the check
    runs from here, and a warning says so.
  - Changes nothing; runs in check mode too.
options:
  user: {description: The supervisor., type: str, required: true}
  ruas: {description: The ruas program., type: str, required: true}
  config: {description: The configuration., type: str, required: true}
  unit: {description: "The supervisor's systemd service, or empty.", type: str, default: ''}
  systemctl: {description: The systemctl program., type: str, default: /bin/systemctl}
  cgroup_root: {description: The cgroup v2 mount., type: str, default: /sys/fs/cgroup}
'''

EXAMPLES = r'''
- name: ruas check as the supervisor, from its service's leaf
  ruas_check:
    user: orchestrator
    ruas: /usr/bin/ruas
    config: /etc/ruas/ruas.conf
    unit: orchestrator
  register: checked
'''

RETURN = r'''
report:
  description: "The parsed report of C(ruas check --json): ok, projects, each with its errors
    and warnings (the role keeps it as the fact ruas_check_report)."
  returned: when ruas check gave a report
  type: dict
fatal:
  description: "One line per fatal finding: project NAME (user U): CHECK: MESSAGE."
  returned: when ruas check gave a report
  type: list
  elements: str
warnings_found:
  description: The warnings, as the fatal findings are.
  returned: when ruas check gave a report
  type: list
  elements: str
rc:
  description: The exit status of ruas check.
  returned: when ruas check ran
  type: int
stderr:
  description: What ruas check wrote on stderr.
  returned: when ruas check ran
  type: str
cgroup:
  description: The service's cgroup the check ran in, or null when it ran from here.
  returned: when ruas check gave a report
  type: str
'''


# A systemd unit's characters, not starting with '-' (no option to systemctl).
UNIT_NAME = re.compile(r'^[A-Za-z0-9:_.\\@][A-Za-z0-9:_.\\@-]*\Z')


def as_user(user):
    """(preexec-free) subprocess arguments that run as user with its groups and home."""
    pw = pwd.getpwnam(user)
    env = {'PATH': '/usr/local/bin:/usr/bin:/bin', 'HOME': pw.pw_dir, 'USER': user,
           'LOGNAME': user, 'LANG': 'C.UTF-8'}
    cwd = pw.pw_dir if os.path.isdir(pw.pw_dir) else '/'
    return dict(user=pw.pw_uid, group=pw.pw_gid, extra_groups=os.getgrouplist(user, pw.pw_gid),
                env=env, cwd=cwd, umask=0o022)


def in_leaf(user, procs_fd):
    """as_user(user), then into the cgroup of procs_fd (its cgroup.procs, opened by root).

    The child is the supervisor's before it joins: a process of root's in the
    supervisor's own subtree could be frozen or moved there by it. The kernel
    judges the move by the credentials that opened the file (root's)."""
    kw = as_user(user)
    uid, gid, groups = kw.pop('user'), kw.pop('group'), kw.pop('extra_groups')

    def enter():
        os.setgroups(groups)
        os.setgid(gid)
        os.setuid(uid)
        os.write(procs_fd, b'0')
    return dict(preexec_fn=enter, **kw)


def service_leaf(module, p):
    """cgroup.procs of the leaf the service p['unit'] runs its supervisor in, or None."""
    if not p['unit']:
        return None
    if not UNIT_NAME.match(p['unit']):
        module.fail_json(msg='unit %r is not a systemd service name' % p['unit'])
    unit = p['unit'] if p['unit'].endswith('.service') else p['unit'] + '.service'
    try:
        proc = subprocess.run([p['systemctl'], 'show', '-p', 'ControlGroup', '--value', '--', unit],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                              check=False)
        cg = proc.stdout.decode('utf-8', 'replace').strip() if proc.returncode == 0 else ''
    except (OSError, subprocess.SubprocessError):
        cg = ''
    leaf = os.path.join(p['cgroup_root'], cg.lstrip('/'), 'supervisor') if cg.startswith('/') else ''
    procs = os.path.join(leaf, 'cgroup.procs')
    if not cg.startswith('/') or '/../' in cg + '/' or not os.path.isfile(procs):
        module.warn('%s runs no supervisor in a leaf "supervisor" of its cgroup%s (restart it '
                    'with its drop-in in place; ruas-setup(8), DELEGATE): ruas check judges the '
                    'cgroup limits from here, not from where the supervisor runs'
                    % (unit, ' ' + cg if cg else ''))
        return None
    return procs


def open_procs(module, procs):
    """procs (a cgroup.procs) opened by root for writing, close-on-exec."""
    try:
        return os.open(procs, os.O_WRONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError as e:
        module.fail_json(msg='cannot open %s: %s' % (procs, e))
    return None


def findings(report, kind):
    """'project NAME (user U): CHECK: MESSAGE' for each finding of kind (errors, warnings)."""
    out = []
    for p in report.get('projects', []):
        who = 'project %s' % p.get('name')
        if p.get('run_as_user'):
            who += ' (user %s)' % p['run_as_user']
        for f in p.get(kind, []):
            out.append('%s: %s: %s' % (who, f.get('check'), (f.get('message') or '').rstrip()))
    return out


def main():
    module = AnsibleModule(argument_spec=dict(
        user=dict(type='str', required=True),
        ruas=dict(type='str', required=True),
        config=dict(type='str', required=True),
        unit=dict(type='str', default=''),
        systemctl=dict(type='str', default='/bin/systemctl'),
        cgroup_root=dict(type='str', default='/sys/fs/cgroup')), supports_check_mode=True)
    p = module.params
    argv = [p['ruas'], 'check', '-c', p['config'], '--json']
    leaf = service_leaf(module, p)
    procs_fd = open_procs(module, leaf) if leaf else None
    try:
        how = in_leaf(p['user'], procs_fd) if leaf else as_user(p['user'])
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=600, check=False, start_new_session=True, **how)
    except (KeyError, OSError, subprocess.SubprocessError) as e:
        module.fail_json(msg='cannot run ruas check as %s: %s' % (p['user'], e), cmd=argv)
    finally:
        if procs_fd is not None:
            os.close(procs_fd)
    out = proc.stdout.decode('utf-8', 'replace')
    err = proc.stderr.decode('utf-8', 'replace')
    try:
        report = json.loads(out)
    except ValueError:
        module.fail_json(msg='ruas check (exit %d) as %s gave no report: %s'
                         % (proc.returncode, p['user'], err.strip()), rc=proc.returncode,
                         stdout=out, stderr=err, cmd=argv)
    fatal, warnings = findings(report, 'errors'), findings(report, 'warnings')
    for w in warnings:
        module.warn(w)
    result = dict(changed=False, report=report, fatal=fatal, warnings_found=warnings,
                  rc=proc.returncode, stderr=err, cgroup=os.path.dirname(leaf) if leaf else None)
    if not report.get('ok') or proc.returncode != 0:
        module.fail_json(msg='ruas check as %s found %d fatal finding(s) in %s:\n%s'
                         % (p['user'], len(fatal), p['config'], '\n'.join(fatal)), **result)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
