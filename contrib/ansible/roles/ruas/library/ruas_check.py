#!/usr/bin/python
# ruas_check.py - ruas check --json as the supervisor; fails with the fatal findings' text.
"""Ansible module ruas_check: the startup checks as the supervisor, parsed, never by hand."""

import json
import os
import pwd
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
  - Changes nothing; runs in check mode too.
options:
  user: {description: The supervisor., type: str, required: true}
  ruas: {description: The ruas program., type: str, required: true}
  config: {description: The configuration., type: str, required: true}
'''


def as_user(user):
    """(preexec-free) subprocess arguments that run as user with its groups and home."""
    pw = pwd.getpwnam(user)
    env = {'PATH': '/usr/local/bin:/usr/bin:/bin', 'HOME': pw.pw_dir, 'USER': user,
           'LOGNAME': user, 'LANG': 'C.UTF-8'}
    cwd = pw.pw_dir if os.path.isdir(pw.pw_dir) else '/'
    return dict(user=pw.pw_uid, group=pw.pw_gid, extra_groups=os.getgrouplist(user, pw.pw_gid),
                env=env, cwd=cwd, umask=0o022)


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
        config=dict(type='str', required=True)), supports_check_mode=True)
    p = module.params
    argv = [p['ruas'], 'check', '-c', p['config'], '--json']
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=600, check=False, **as_user(p['user']))
    except (KeyError, OSError, subprocess.SubprocessError) as e:
        module.fail_json(msg='cannot run ruas check as %s: %s' % (p['user'], e), cmd=argv)
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
                  rc=proc.returncode, stderr=err)
    if not report.get('ok') or proc.returncode != 0:
        module.fail_json(msg='ruas check as %s found %d fatal finding(s) in %s:\n%s'
                         % (p['user'], len(fatal), p['config'], '\n'.join(fatal)), **result)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
