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
    created with useradd when missing (with I(uid) when given), and left as it is when
    present (an existing account of another uid than I(uid) fails the task).
  - I(role=target) - runs the script of C(ruas-setup useradd) (with C(--uid) when I(uid)
    is given), makes each missing work_dir (one component at a time, never through a
    symlink, root's, 0711 above the work_dir and 0700 the work_dir itself), then
    C(ruas-setup acl) on it. Changed only when the account, its password lock, its home's
    mode or an ACL changed.
  - I(state=absent) - the user is removed with C(userdel) (never C(-r), so its home, its
    work_dirs and its files stay), only when none of its processes runs; otherwise the task
    fails, naming them. An absent user is left absent (not changed).
  - Check mode changes nothing and predicts from what it can read (the work_dirs' ACLs from
    their extended attributes, so without the acl package).
options:
  name:
    description: The user name.
    type: str
    required: true
  role:
    description: What the account is for.
    type: str
    choices: [supervisor, target]
    required: true
  state:
    description: "C(present) creates the user, C(absent) removes it (role=target)."
    type: str
    choices: [present, absent]
    default: present
  ruas_setup:
    description: The ruas-setup program.
    type: str
    required: true
  work_dirs:
    description: "The target's work_dirs, exactly (no C(~) or C($VAR) expansion)."
    type: list
    elements: str
    default: []
  shell:
    description: The login shell of a new account.
    type: str
    default: /bin/bash
  uid:
    description: The uid to pin; a new account gets it, an existing one of another uid fails.
    type: int
'''

EXAMPLES = r'''
- name: The supervisor, uid 57200
  ruas_user:
    name: orchestrator
    role: supervisor
    uid: 57200
    ruas_setup: /usr/sbin/ruas-setup

- name: A target with its work_dir
  ruas_user:
    name: web-agent
    role: target
    work_dirs: [/srv/web]
    ruas_setup: /usr/sbin/ruas-setup

- name: A retired target's account (its home and work_dirs stay)
  ruas_user:
    name: old-agent
    role: target
    state: absent
    ruas_setup: /usr/sbin/ruas-setup
'''

RETURN = r'''
name:
  description: The user name.
  returned: success
  type: str
  sample: web-agent
messages:
  description: What ruas-setup said (role=target, state=present).
  returned: when ruas-setup ran
  type: list
  elements: str
msg:
  description: What was done, or in check mode what would be.
  returned: when something was or would be done
  type: str
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


def pinned_uid_ok(module, p):
    """Fails the task when p['uid'] is pinned and the account has another, or another
    account has it; True when the account exists."""
    try:
        have = pwd.getpwnam(p['name']).pw_uid
    except KeyError:
        have = None
    uid = p['uid']
    if uid is None:
        return have is not None
    if have is not None and have != uid:
        module.fail_json(msg='user %s exists with uid %d, not the pinned uid %d: change it with '
                         'usermod -u %d %s while none of its processes runs (files outside its '
                         'home keep uid %d: find / -xdev -uid %d -exec chown -h %d {} +), or pin '
                         'uid %d' % (p['name'], have, uid, uid, p['name'], have, have, uid, have))
    if have is None:
        if uid <= 0:
            module.fail_json(msg='uid %d for %s: a pinned uid is not root\'s (0), nor negative'
                             % (uid, p['name']))
        try:
            other = pwd.getpwuid(uid).pw_name
        except KeyError:
            other = None
        if other is not None:
            module.fail_json(msg='uid %d for %s is already user %s\'s: pin a uid that no user has'
                             % (uid, p['name'], other))
    return have is not None


def supervisor(module, p):
    # ruas-setup judges the name as it would in a fragment; the target is only a foil.
    foil = 'x' if p['name'] == '_' else '_'
    run_or_fail(module, [p['ruas_setup'], 'sudoers', '--supervisor', p['name'], '--target', foil],
                'ruas-setup sudoers (the supervisor name)')
    if pinned_uid_ok(module, p):
        module.exit_json(changed=False, name=p['name'])
    if not module.check_mode:
        # HOME_MODE: Debian's login.defs leaves homes 0755, and the supervisor's home
        # holds what no agent may read (~/.ssh, ~/.claude, ~/.config).
        uid = ['--uid', str(p['uid'])] if p['uid'] is not None else []
        run_or_fail(module, ['useradd', '--create-home', '-K', 'HOME_MODE=0700'] + uid +
                    ['--shell', p['shell'], p['name']], 'useradd ' + p['name'])
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


ACL_USER = 0x02  # e_tag of a named user's entry (linux/posix_acl_xattr.h)
ACL_MASK = 0x10  # e_tag of the mask, which bounds every named entry (a chmod sets it)


def acl_has_rwx(d, attr, uid):
    """Does the POSIX ACL xattr attr of d have user:uid:rwx? Read as the kernel stores it
    (version 2, then entries of tag u16, perm u16, id u32), without the acl package."""
    try:
        raw = os.getxattr(d, attr, follow_symlinks=False)
    except OSError:
        return False  # none, or no ACLs on this filesystem
    if len(raw) < 4 or int.from_bytes(raw[:4], 'little') != 2:
        return False
    user, mask = False, 7
    for off in range(4, len(raw) - 7, 8):
        tag, perm = (int.from_bytes(raw[off + i:off + i + 2], 'little') for i in (0, 2))
        if tag == ACL_USER and perm & 7 == 7 and int.from_bytes(raw[off + 4:off + 8],
                                                                'little') == uid:
            user = True
        elif tag == ACL_MASK:
            mask = perm & 7
    # A mask without rwx (a chmod 700 after the grant) leaves the entry without effect.
    return user and mask == 7


def acl_granted(user, d):
    """Read-only, for check mode: does d's own ACL grant user rwx now and by default?

    A d of user's own is left as it is by ruas-setup acl: nothing to grant there."""
    uid = pwd.getpwnam(user).pw_uid
    try:
        if os.lstat(d).st_uid == uid:
            return True
    except OSError:
        return False
    return (acl_has_rwx(d, 'system.posix_acl_access', uid) and
            acl_has_rwx(d, 'system.posix_acl_default', uid))


def predict(module, p, before):
    """Check mode: what a real run would change, from reading alone, as a diff."""
    todo = [] if before is not None else ['create user %s (ruas-setup useradd)' % p['name']]
    todo += ['create work_dir %s' % d for d in p['work_dirs'] if not os.path.isdir(d)]
    if not todo:
        todo = ['grant rwX to %s on %s (ruas-setup acl)' % (p['name'], d) for d in p['work_dirs']
                if not acl_granted(p['name'], d)]
    after = ''.join('would %s\n' % t for t in todo)
    module.exit_json(changed=bool(todo), msg=after.strip() or 'ok (the trees below the '
                     'work_dirs are not walked in check mode)',
                     diff=dict(before='', after=after, before_header=p['name'],
                               after_header=p['name']))


def target(module, p):
    name = p['name']
    # Refusals (sudoers syntax, root, ...) exit 2 with ruas-setup's message.
    uid = ['--uid', str(p['uid'])] if p['uid'] is not None else []
    script, _ = run_or_fail(module, [p['ruas_setup'], 'useradd', '--target', name,
                                     '--shell', p['shell']] + uid, 'ruas-setup useradd')
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


def processes_of(uid):
    """The pids of the processes with uid among their real, effective, saved or fs uids."""
    pids = []
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open('/proc/%s/status' % pid, encoding='ascii', errors='replace') as f:
                line = next((x for x in f if x.startswith('Uid:')), '')
        except OSError:
            continue  # gone meanwhile
        if str(uid) in line.split()[1:]:
            pids.append(int(pid))
    return sorted(pids)


def login_defs_uid_min():
    """UID_MIN of /etc/login.defs, as useradd reads it (1000 when it is not set)."""
    try:
        with open('/etc/login.defs', encoding='utf-8', errors='replace') as f:
            for line in f:
                w = line.split()
                if len(w) >= 2 and w[0] == 'UID_MIN' and w[1].isdigit():
                    return int(w[1])
    except OSError:
        pass
    return 1000


def absent(module, p):
    """userdel without -r: the home, the work_dirs and the files stay."""
    name = p['name']
    try:
        pw = pwd.getpwnam(name)
    except KeyError:
        module.exit_json(changed=False, name=name, msg='user %s is absent' % name)
    if pw.pw_uid == 0:
        module.fail_json(msg='user %s has uid 0 (it is root); not removed' % name)
    # ruas-setup useradd makes accounts of the normal range: one below it (sshd, say) is a
    # system account that a retired project's run_as_user names by mistake.
    uid_min = login_defs_uid_min()
    if pw.pw_uid < uid_min:
        module.fail_json(msg='user %s (uid %d) is below UID_MIN %d of /etc/login.defs, a system '
                         'account, not one that ruas-setup useradd makes: not removed; remove '
                         'it by hand (userdel %s) if that is meant' % (name, pw.pw_uid, uid_min,
                                                                       name))
    pids = processes_of(pw.pw_uid)
    if pids:
        module.fail_json(msg='user %s (uid %d) still runs %d process(es), pids %s: not removed. '
                         'Stop them (pkill -u %s) and run the role again'
                         % (name, pw.pw_uid, len(pids), ' '.join(map(str, pids[:20])), name),
                         pids=pids)
    msg = 'removed user %s (userdel; its home %s and its files stay)' % (name, pw.pw_dir)
    if not module.check_mode:
        run_or_fail(module, ['userdel', name], 'userdel ' + name)
    else:
        msg = 'would have ' + msg
    module.exit_json(changed=True, name=name, msg=msg,
                     diff=dict(before='user %s (uid %d)\n' % (name, pw.pw_uid), after='',
                               before_header=name, after_header=name))


def main():
    module = AnsibleModule(argument_spec=dict(
        name=dict(type='str', required=True),
        role=dict(type='str', required=True, choices=['supervisor', 'target']),
        state=dict(type='str', default='present', choices=['present', 'absent']),
        ruas_setup=dict(type='str', required=True),
        work_dirs=dict(type='list', elements='str', default=[]),
        shell=dict(type='str', default='/bin/bash'),
        uid=dict(type='int')), supports_check_mode=True)
    p = module.params
    if p['state'] == 'absent':
        if p['role'] != 'target':
            module.fail_json(msg='state=absent is for targets; the role never removes '
                             'the supervisor')
        absent(module, p)
    if p['role'] == 'supervisor':
        supervisor(module, p)
    target(module, p)


if __name__ == '__main__':
    main()
