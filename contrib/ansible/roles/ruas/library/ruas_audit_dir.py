#!/usr/bin/python
# SPDX-License-Identifier: ISC
# ruas_audit_dir.py - the audit_log's directory, the supervisor's and 0700, before ruas.conf names it.
"""Ansible module ruas_audit_dir: the directory of ruas.conf's audit_log, made for the supervisor."""

import grp
import os
import pwd
import stat

from ansible.module_utils.basic import AnsibleModule

DOCUMENTATION = r'''
module: ruas_audit_dir
short_description: Make the directory of ruas.conf's audit_log the supervisor's, mode 0700
description:
  - The supervisor's first spawn creates the audit_log (ruas.conf(5)), 0600, in its
    directory, which must be the supervisor's (or root's) and writable by no one else. This
    module makes that directory, owned by the supervisor and its primary group, mode 0700,
    before the configuration that names it is written.
  - Missing directories above it are made root's, 0755, one component at a time, never
    through a symlink; existing ones are left as they are (ruas check judges them).
  - An existing directory is taken only when it is the supervisor's already (its group
    and mode are then set); any other, such as one of root's, is refused with the fix
    (a chown to the supervisor, by hand), since handing over a directory of the system (an empty
    C(/usr/local/sbin), say) could hand over root. A directory right below C(/) and a
    symlink in its place are refused too, before anything is made.
  - Supports check mode and diff mode.
options:
  path:
    description: The audit_log, an absolute path.
    type: str
    required: true
  owner:
    description: The supervisor, whose directory it becomes.
    type: str
    required: true
'''

EXAMPLES = r'''
- name: The directory of /var/log/ruas/audit.jsonl, the supervisor's
  ruas_audit_dir:
    path: /var/log/ruas/audit.jsonl
    owner: orchestrator
'''

RETURN = r'''
directory:
  description: The audit_log's directory.
  returned: success
  type: str
  sample: /var/log/ruas
msg:
  description: What was done, or in check mode what would be.
  returned: success
  type: str
'''


def refuse(module, path, directory, why):
    module.fail_json(msg='audit_log %s: its directory %s %s; give the audit_log a directory of '
                     'its own, such as /var/log/ruas/%s, which the role makes the '
                     'supervisor\'s' % (path, directory, why, os.path.basename(path)))


def walk(module, parts):
    """(fd, n): a descriptor of the deepest existing directory of /parts[0]/.../parts[-1],
    reached without a symlink, and how many of parts it is (len(parts): all exist)."""
    fd = os.open('/', os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    for i, c in enumerate(parts):
        try:
            nfd = os.open(c, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                          dir_fd=fd)
        except FileNotFoundError:
            return fd, i
        except OSError as e:
            os.close(fd)
            module.fail_json(msg='audit_log: %s is not a directory of its own (%s); refusing'
                             % ('/' + '/'.join(parts[:i + 1]), e.strerror))
        os.close(fd)
        fd = nfd
    return fd, len(parts)


def make_rest(fd, rest, uid, gid):
    """Makes rest below fd (which it closes): root's 0755 above, the last one uid:gid 0700.
    The last one's fd."""
    for i, c in enumerate(rest):
        last = i == len(rest) - 1
        os.mkdir(c, 0o700 if last else 0o755, dir_fd=fd)
        nfd = os.open(c, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
        os.close(fd)
        fd = nfd
        if last:
            os.fchown(fd, uid, gid)
        os.fchmod(fd, 0o700 if last else 0o755)
    return fd


def main():
    module = AnsibleModule(argument_spec=dict(
        path=dict(type='str', required=True),
        owner=dict(type='str', required=True)), supports_check_mode=True)
    p = module.params
    path = p['path']
    parts = [c for c in path.split('/') if c not in ('', '.')]
    if not path.startswith('/') or '..' in parts or len(parts) < 2 or path.endswith('/'):
        module.fail_json(msg='audit_log %r must be an absolute path of a file in a directory '
                         'below /, without ..' % path)
    directory, owner = '/' + '/'.join(parts[:-1]), p['owner']
    if len(parts) < 3:
        refuse(module, path, directory, 'is right below /')
    try:
        pw = pwd.getpwnam(owner)
    except KeyError:
        if not module.check_mode:
            module.fail_json(msg='the supervisor %s does not exist' % owner)
        pw = None
    fd, n = walk(module, parts[:-1])
    result = dict(directory=directory)
    after = '%s %s:%s 700\n' % (directory, owner, group_name(pw.pw_gid) if pw else owner)
    try:
        if n < len(parts) - 1:
            # Missing: made here, so it holds nothing of anyone else's.
            if not module.check_mode:
                fd = make_rest(fd, parts[n:-1], pw.pw_uid, pw.pw_gid)
            result.update(changed=True, msg=('would make ' if module.check_mode else 'made ') +
                          after.strip(),
                          diff=dict(before='', after=after, before_header=directory,
                                    after_header=directory))
            module.exit_json(**result)
        st = os.fstat(fd)
        before = '%s %s:%s %o\n' % (directory, owner_name(st.st_uid), group_name(st.st_gid),
                                    stat.S_IMODE(st.st_mode))
        # An existing directory is taken only when it is the supervisor's already: handing
        # over one of root's (an empty /usr/local/sbin, say) could hand over root.
        if pw is None or st.st_uid != pw.pw_uid:
            refuse(module, path, directory,
                   'exists and is %s\'s, not the supervisor %s\'s: the role gives the supervisor '
                   'only a directory that it makes itself (if %s is meant for the audit_log '
                   'alone: chown %s: %s)' % (owner_name(st.st_uid), owner, directory, owner,
                                             directory))
        changed = st.st_gid != pw.pw_gid or stat.S_IMODE(st.st_mode) != 0o700
        if changed and not module.check_mode:
            os.fchown(fd, pw.pw_uid, pw.pw_gid)
            os.fchmod(fd, 0o700)
    finally:
        os.close(fd)
    result.update(changed=changed, msg=('would make ' if module.check_mode else 'made ') +
                  after.strip() if changed else 'ok',
                  diff=dict(before=before, after=after, before_header=directory,
                            after_header=directory))
    module.exit_json(**result)


def owner_name(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def group_name(gid):
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return str(gid)


if __name__ == '__main__':
    main()
