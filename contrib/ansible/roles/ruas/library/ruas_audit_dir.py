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
  - An existing directory is made the supervisor's and 0700 only when it holds nothing
    but the audit_log and its rotated copies (C(NAME.1), C(NAME.2.gz), ...), such as one
    that an earlier attempt left root's and 0755. A directory that holds anything else is
    refused, and so are a directory right below C(/), a mount point, one of the system's
    shared directories (C(/var/log) itself, C(/srv), C(/opt), ...), even empty, and a
    symlink in its place.
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


# Directories of the system that hold others' files, even when empty: never the supervisor's.
SHARED = ('/var', '/var/log', '/var/lib', '/var/cache', '/var/tmp', '/var/spool', '/var/mail',
          '/var/opt', '/var/local', '/var/backups', '/usr/local', '/usr/share', '/usr/lib')


def shared(module, path, directory, name, fd):
    """Fails the task when directory is not one the audit_log can have for itself."""
    st, up = os.fstat(fd), os.stat('..', dir_fd=fd, follow_symlinks=False)
    why = None
    if directory.count('/') < 2 or directory in SHARED:
        why = 'a directory of the system that holds other files'
    elif st.st_dev != up.st_dev:
        why = 'a mount point'
    else:
        others = [e for e in os.listdir(fd) if e != name and not e.startswith(name + '.')]
        if others:
            why = 'a directory that holds other files (%s)' % ', '.join(sorted(others)[:5])
    if why:
        module.fail_json(msg='audit_log %s: its directory %s is %s; give the audit_log a '
                         'directory of its own, such as /var/log/ruas/%s, which the role makes '
                         'the supervisor\'s' % (path, directory, why, name))


def walk(module, parts, make):
    """A descriptor of /parts[0]/.../parts[-1] (never through a symlink), making the missing
    ones root's 0755 when make; None when one is missing and not made. (fd, made)."""
    fd = os.open('/', os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    made = False
    for c in parts:
        try:
            nfd = os.open(c, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                          dir_fd=fd)
        except FileNotFoundError:
            if not make:
                os.close(fd)
                return None, True
            os.mkdir(c, 0o755, dir_fd=fd)
            nfd = os.open(c, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                          dir_fd=fd)
            os.fchmod(nfd, 0o755)
            made = True
        except OSError as e:
            os.close(fd)
            module.fail_json(msg='audit_log: %s is not a directory of its own (%s); refusing'
                             % ('/' + '/'.join(parts[:parts.index(c) + 1]), e.strerror))
        os.close(fd)
        fd = nfd
    return fd, made


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
    directory, name = '/' + '/'.join(parts[:-1]), parts[-1]
    try:
        pw = pwd.getpwnam(p['owner'])
    except KeyError:
        if not module.check_mode:
            module.fail_json(msg='the supervisor %s does not exist' % p['owner'])
        pw = None
    fd, made = walk(module, parts[:-1], not module.check_mode)
    result = dict(directory=directory)
    if fd is None:  # check mode, missing
        result.update(changed=True, msg='would make %s, %s 0700' % (directory, p['owner']),
                      diff=dict(before='', after='%s %s 0700\n' % (directory, p['owner']),
                                before_header=directory, after_header=directory))
        module.exit_json(**result)
    try:
        shared(module, path, directory, name, fd)
        st = os.fstat(fd)
        want_uid = pw.pw_uid if pw else None
        want_gid = pw.pw_gid if pw else None
        before = '%s %s:%s %o\n' % (directory, owner_name(st.st_uid), group_name(st.st_gid),
                                    stat.S_IMODE(st.st_mode))
        changed = made or pw is None or (st.st_uid, st.st_gid) != (want_uid, want_gid) or \
            stat.S_IMODE(st.st_mode) != 0o700
        after = '%s %s:%s 700\n' % (directory, p['owner'],
                                    group_name(want_gid) if pw else p['owner'])
        if changed and not module.check_mode:
            os.fchown(fd, want_uid, want_gid)
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
