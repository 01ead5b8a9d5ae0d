# SPDX-License-Identifier: ISC
"""_errors - ruas.Error and its subclasses, one per ruas_code."""
import subprocess

from . import _lib


class Error(subprocess.SubprocessError):
    """A refusal or failure of libruas: the message names the project, user,
    path and fix. code is the ruas_code (negative); file and line name the
    configuration place when there is one; errno is set for SystemCallError.
    A subprocess.SubprocessError, as Popen's own errors are."""

    code = 0

    def __init__(self, message, code=None, file=None, line=0, errno=0):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.file = file
        self.line = line
        self.errno = errno


class ConfigError(Error):
    """The configuration was refused: syntax, keys, values (RUAS_ERR_CONFIG)."""
    code = -1


class NotFoundError(Error):
    """No such project (RUAS_ERR_NOTFOUND)."""
    code = -2


class SystemCallError(Error, OSError):
    """A system call failed; errno says which error (RUAS_ERR_SYSTEM). An
    OSError too, so that `except OSError` catches it as it does Popen's."""
    code = -3

    def __init__(self, message, code=None, file=None, line=0, errno=0):
        Error.__init__(self, message, code, file, line, errno)
        if errno:  # str() is then OSError's: "[Errno N] message"
            self.strerror = message


class InvalidError(Error):
    """An invalid argument from the caller (RUAS_ERR_INVALID)."""
    code = -4


class NoMemoryError(Error):
    """Out of memory (RUAS_ERR_NOMEM)."""
    code = -5


class TooLongError(Error):
    """Arguments or variables the agent's exec would refuse (RUAS_ERR_TOOLONG):
    one over 131071 bytes, or 2 MiB in all; nothing started."""
    code = -6


class EscapeError(Error):
    """A path leaves the directory it must stay in (RUAS_ERR_ESCAPE)."""
    code = -7


class StartError(Error, OSError):
    """The agent did not start (RUAS_ERR_START): stage says where ("sudo",
    "work_dir", "exec", "login" or "helper"), errno why (0 for a refusal
    with none, such as sudo's), filename what (the command, or the
    work_dir). An OSError, as Popen's are; for a command or a work_dir that
    is not there also a FileNotFoundError, and for one that may not be run
    or entered a PermissionError."""
    code = -8

    def __init__(self, message, code=None, file=None, line=0, errno=0, stage=""):
        Error.__init__(self, message, code, file, line, errno)
        self.stage = stage
        self.filename = file
        if errno:  # str() is then OSError's: "[Errno N] message: 'filename'"
            self.strerror = message


class _StartNotFound(StartError, FileNotFoundError):
    __doc__ = StartError.__doc__


class _StartPermission(StartError, PermissionError):
    __doc__ = StartError.__doc__


_STAGES = {1: "sudo", 2: "work_dir", 3: "exec", 4: "login", 5: "helper"}
_ENOENT, _EACCES = 2, 13


def _start_error(message, code, file, line, errnum, stage):
    cls = StartError
    if errnum == _ENOENT:  # a command or a work_dir not there, as Popen's cwd= too
        cls = _StartNotFound
    elif errnum == _EACCES:
        cls = _StartPermission
    return cls(message, code, file, line, errnum, _STAGES.get(stage, "helper"))


_BY_CODE = {c.code: c for c in (ConfigError, NotFoundError, SystemCallError, InvalidError,
                                NoMemoryError, TooLongError, EscapeError)}


def raise_from(rc, err):
    """Raises the Error for ruas_error *err (freed here), rc being the call's result."""
    if not err:
        raise Error("ruas: call failed (%d) without an error" % rc, rc)
    e = err
    try:
        code = _lib.lib.ruas_error_code(e)
        args = (_lib.text(_lib.lib.ruas_error_message(e)), code,
                _lib.text(_lib.lib.ruas_error_file(e)), _lib.lib.ruas_error_line(e),
                _lib.lib.ruas_error_errno(e))
        if code == StartError.code:
            raise _start_error(*args, _lib.lib.ruas_error_stage(e))
        raise _BY_CODE.get(code, Error)(*args)
    finally:
        _lib.lib.ruas_error_free(e)


def check(rc, err):
    """rc, or the Error of err when rc is negative."""
    if rc < 0:
        raise_from(rc, err)
    return rc


def new_err():
    return _lib.P()

