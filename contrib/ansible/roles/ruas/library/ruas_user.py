#!/usr/bin/python
# SPDX-License-Identifier: ISC
# ruas_user.py - the supervisor account, and target users with their work_dirs, through ruas-setup.
"""Ansible module ruas_user: accounts through ruas-setup's verbs, with honest changed."""

import os
import pwd
import re
import stat
import sys

from ansible.module_utils.basic import AnsibleModule
try:
    from ansible.module_utils.ruas_common import run, run_or_fail
except ImportError:  # ansible-lint loads a module alone, without the role's module_utils
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'module_utils'))
    from ruas_common import run, run_or_fail  # pylint: disable=import-error

DOCUMENTATION = r'''
module: ruas_user
short_description: Create the ruas supervisor, or a target user and its work_dirs
description:
  - I(role=supervisor) - the name is first judged by C(ruas-setup sudoers) (a name that
    sudoers would read as something else is refused with its message); the account is
    created with useradd when missing, and left as it is when present.
  - I(role=target) - runs the script of C(ruas-setup useradd), makes each missing work_dir
    (one component at a time, never through a symlink, root's: 0711 above the
    work_dir, 0700 the work_dir itself), then
    C(ruas-setup acl) on it. Changed only when the account, its password lock, its home's
    mode or an ACL changed.
  - Check mode changes nothing and predicts from what it can read.
options:
  name: {description: The user name., type: str, required: true}
  role: {description: What the account is for., type: str, choices: [supervisor, target],
         required: true}
  ruas_setup: {description: The ruas-setup program., type: str, required: true}
  work_dirs: {description: "The target's work_dirs, exactly (no ~ or $VAR expansion).",
              type: list, elements: str, default: []}
  shell: {description: The login shell of a new account., type: str, default: /bin/bash}
'''


def account_state(module, name):
    """What the useradd script can change: the passwd entry, the lock, the home's mode."""
    try:
        pw = pwd.getpwnam(name)
    except KeyError:
        return None
    rc, out, _ = run(module, ['passwd', '--status', name])
    try:
        home = stat.S_IMODE(os.lstat(pw.pw_dir).st_mode)
    except OSError:
        home = None
    return (tuple(pw), out.split()[1:2] if rc == 0 else None, home)


def supervisor(module, p):
    # ruas-setup judges the name as it would in a fragment; the target is only a foil.
    foil = 'x' if p['name'] == '_' else '_'
    run_or_fail(module, [p['ruas_setup'], 'sudoers', '--supervisor', p['name'], '--target', foil],
                'ruas-setup sudoers (the supervisor name)')
    if account_state(module, p['name']) is not None:
        module.exit_json(changed=False, name=p['name'])
    if not module.check_mode:
        # HOME_MODE: Debian's login.defs leaves homes 0755, and the supervisor's home
        # holds what no agent may read (~/.ssh, ~/.claude, ~/.config).
        run_or_fail(module, ['useradd', '--create-home', '-K', 'HOME_MODE=0700', '--shell',
                             p['shell'], p['name']], 'useradd ' + p['name'])
    module.exit_json(changed=True, name=p['name'], msg='created the supervisor ' + p['name'])


def make_dirs(path):
    """Makes path's missing directories from /, each by descriptor; True if any was made.

    A symlink or a '..' anywhere in it is refused, so that a user who owns a
    parent cannot redirect the creation (ruas-setup acl refuses them as well)."""
    parts = [c for c in path.split('/') if c not in ('', '.')]
    if not path.startswith('/') or '..' in parts:
        raise OSError('work_dir %s must be an absolute path without ..' % path)
    made = False
    fd = os.open('/', os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for i, c in enumerate(parts):
            try:
                os.mkdir(c, 0o700, dir_fd=fd)
                new = True
            except FileExistsError:
                new = False
            try:
                nfd = os.open(c, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                              dir_fd=fd)
            except OSError as e:
                raise OSError('work_dir %s: %s is not a directory of its own (%s); refusing'
                              % (path, c, e.strerror))
            os.close(fd)
            fd = nfd
            if new:
                # On the descriptor: whatever the umask, no name again. The work_dir
                # itself 0700 (ruas-setup acl then grants the target, and its default
                # ACL copies other::--- from this mode, so nothing the agent writes is
                # another user's to read); the directories above it 0711, to pass
                # through but not to list (a person's scope, for one).
                os.fchmod(fd, 0o700 if i == len(parts) - 1 else 0o711)
                made = True
    finally:
        os.close(fd)
    return made


def acl_granted(module, user, d):
    """Read-only, for check mode: does d's own ACL grant user rwx now and by default?

    A d of user's own is left as it is by ruas-setup acl: nothing to grant there."""
    uid = str(pwd.getpwnam(user).pw_uid)
    try:
        if str(os.lstat(d).st_uid) == uid:
            return True
    except OSError:
        return False
    rc, out, _ = run(module, ['getfacl', '--physical', '--omit-header', '--numeric', '--', d])
    if rc != 0:
        return False
    lines = out.splitlines()
    return 'user:%s:rwx' % uid in lines and 'default:user:%s:rwx' % uid in lines


def predict(module, p, before):
    """Check mode: what a real run would change, from reading alone, as a diff."""
    todo = [] if before is not None else ['create user %s (ruas-setup useradd)' % p['name']]
    todo += ['create work_dir %s' % d for d in p['work_dirs'] if not os.path.isdir(d)]
    if not todo:
        todo = ['grant rwX to %s on %s (ruas-setup acl)' % (p['name'], d) for d in p['work_dirs']
                if not acl_granted(module, p['name'], d)]
    after = ''.join('would %s\n' % t for t in todo)
    module.exit_json(changed=bool(todo), msg=after.strip() or 'ok (the trees below the '
                     'work_dirs are not walked in check mode)',
                     diff=dict(before='', after=after, before_header=p['name'],
                               after_header=p['name']))


def target(module, p):
    name = p['name']
    # Refusals (sudoers syntax, root, ...) exit 2 with ruas-setup's message.
    script, _ = run_or_fail(module, [p['ruas_setup'], 'useradd', '--target', name,
                                     '--shell', p['shell']], 'ruas-setup useradd')
    before = account_state(module, name)
    if module.check_mode:
        predict(module, p, before)
    _, err = run_or_fail(module, ['sh', '-s'], 'the ruas-setup useradd script', data=script)
    messages = err.splitlines()
    changed = before is None or account_state(module, name) != before
    for d in p['work_dirs']:
        try:
            changed = make_dirs(d) or changed
        except OSError as e:
            module.fail_json(msg=str(e), messages=messages)
        _, err = run_or_fail(module, [p['ruas_setup'], 'acl', '--target', name, '--work-dir', d],
                             'ruas-setup acl')
        messages += err.splitlines()
        m = re.search(r'\((\d+) changed\)', err)
        changed = changed or m is None or m.group(1) != '0'
    module.exit_json(changed=changed, name=name, messages=messages)


def main():
    module = AnsibleModule(argument_spec=dict(
        name=dict(type='str', required=True),
        role=dict(type='str', required=True, choices=['supervisor', 'target']),
        ruas_setup=dict(type='str', required=True),
        work_dirs=dict(type='list', elements='str', default=[]),
        shell=dict(type='str', default='/bin/bash')), supports_check_mode=True)
    if module.params['role'] == 'supervisor':
        supervisor(module, module.params)
    target(module, module.params)


if __name__ == '__main__':
    main()
