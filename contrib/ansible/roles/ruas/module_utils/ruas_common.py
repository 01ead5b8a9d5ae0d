# SPDX-License-Identifier: ISC
# ruas_common.py - what the ruas role's modules share: running commands and reading files exactly.
"""Helpers of the ruas role's modules (ansible-core only, Python 3)."""

import os
import stat
import tempfile


def run(module, argv, data=None, env=None, cwd=None):
    """argv without a shell; (rc, stdout, stderr) as text, bytes kept by surrogateescape.

    Every argument exactly: run_command would otherwise expand ~ and $VAR in each
    (expand_user_and_vars), so that a work_dir /srv/$HOME became another path."""
    return module.run_command(argv, data=data, binary_data=True, environ_update=env, cwd=cwd,
                              encoding='utf-8', errors='surrogateescape',
                              expand_user_and_vars=False)


def run_or_fail(module, argv, what, **kw):
    """run(), failing the task with the command's own message when it exits non-zero."""
    rc, out, err = run(module, argv, **kw)
    if rc != 0:
        module.fail_json(msg='%s failed (exit %d): %s' % (what, rc, (err or out).strip()),
                         rc=rc, stdout=out, stderr=err, cmd=argv)
    return out, err


def read_regular(path):
    """(text, stat) of a regular file, never following a symlink; (None, None) if absent.

    A symlink or another kind of file is reported as such (text None, its lstat)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None, None
    except OSError:
        return None, os.lstat(path)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, st
        chunks = []
        while True:
            b = os.read(fd, 65536)
            if not b:
                break
            chunks.append(b)
        return b''.join(chunks).decode('utf-8', 'surrogateescape'), st
    finally:
        os.close(fd)


def root_only(st, mode):
    """True when st is a regular file owned by root:root with exactly this mode."""
    return (st is not None and stat.S_ISREG(st.st_mode) and st.st_uid == 0 and st.st_gid == 0
            and stat.S_IMODE(st.st_mode) == mode)


def write_temp(directory, text, mode):
    """A new file in directory with text, mode, root:root, synced; its path."""
    fd, tmp = tempfile.mkstemp(prefix='.ruas.conf.ansible-', dir=directory)
    try:
        data = text.encode('utf-8', 'surrogateescape')
        while data:
            data = data[os.write(fd, data):]
        os.fchown(fd, 0, 0)
        os.fchmod(fd, mode)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    return tmp
