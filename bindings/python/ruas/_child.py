# SPDX-License-Identifier: ISC
"""_child - ruas.Child, the subprocess.Popen of an agent started through ruas."""
import ctypes
import io
import os
import select
import signal
import subprocess
import time
import warnings
from typing import Any, Optional, Tuple

from . import _errors, _lib
from ._config import _Credentials
from ._handle import Handle

PIPE = subprocess.PIPE
DEVNULL = subprocess.DEVNULL
STDOUT = subprocess.STDOUT
TimeoutExpired = subprocess.TimeoutExpired

# ruas_child_limit()'s ruas_limit: which of the project's limits ended the run.
_LIMITS = {0: None, 1: "memory", 2: "tasks", 3: "time"}


def _entries(mapping, what):
    """NAME=value strings of a mapping; a name that is empty or holds "=" is refused, as Popen does."""
    out = []
    for k, v in mapping.items():
        name = _lib.encode(k)
        if not name or b"=" in name:
            raise ValueError("ruas: illegal environment variable name %r in %s" % (k, what))
        out.append(name + b"=" + _lib.encode(v))
    return _lib.strv(out)


def _env_strv(env):
    """A mapping (or None: a copy of os.environ now, as no other thread's setenv() can race)."""
    return _entries(os.environ if env is None else env, "env")


class _Stdio:
    """The descriptors the agent gets, and the ends this side keeps, as Popen makes them."""

    def __init__(self, stdin, stdout, stderr):
        self.child = [-1, -1, -1]   # what ruas_spawn() duplicates; closed after it
        self.parent = [None, None, None]  # (fd, mode) of our PIPE ends
        self.devnull = None
        self._owned = []  # our pipes' child ends
        try:
            self._take(0, stdin, "wb")
            self._take(1, stdout, "rb")
            if stderr == STDOUT:
                self.child[2] = self.child[1] if self.child[1] >= 0 else 1
            else:
                self._take(2, stderr, "rb")
        except BaseException:
            self.close_all()  # what was made before the bad one
            raise

    def _take(self, i, spec, mode):
        if spec is None:
            return
        if spec == PIPE:
            r, w = os.pipe2(os.O_CLOEXEC)
            self.child[i], ours = (r, w) if i == 0 else (w, r)
            self.parent[i] = (ours, mode)
            self._owned.append(self.child[i])
        elif spec == DEVNULL:
            if self.devnull is None:
                self.devnull = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
            self.child[i] = self.devnull
        elif isinstance(spec, int):
            if spec < 0:
                raise ValueError("ruas: a descriptor is >= 0, not %d" % spec)
            self.child[i] = spec
        else:
            self.child[i] = spec.fileno()

    def close_child_ends(self):
        for fd in self._owned:
            os.close(fd)
        self._owned = []
        if self.devnull is not None:
            os.close(self.devnull)
            self.devnull = None

    def close_all(self):
        self.close_child_ends()
        for i, p in enumerate(self.parent):
            if p:
                os.close(p[0])
                self.parent[i] = None


class Child:
    """An agent started with Config.spawn(), as subprocess.Popen: pid (and
    agent_pid, the agent's own as this host sees it, 0 when unknown), stdin,
    stdout, stderr, poll(), wait(), returncode, send_signal(), terminate(),
    kill(), communicate(), a context manager; and limit, once it has ended,
    the project's limit that ended it: None, "memory", "tasks" or "time"
    (wall_time_max). Behind sudo or ruas-session,
    signals go to the agent's process group through the helper, and
    terminate() ends the agent's whole tree with the project's grace.

    stdin, stdout and stderr take None (inherit), PIPE, DEVNULL, a descriptor
    or a file object (stderr also STDOUT); work_dir is a directory beneath
    the project's; env is the mapping the project's allowlisted values come
    from (None: os.environ); set_env gives values not in env. pty: None
    (the default, a pty of its own when stdin is a terminal, relayed by the
    library) or False (never). credentials: a callable (project, name) ->
    str | None that gives the run's credentials beyond the configured ones,
    asked in the child's credential thread when the agent runs
    ruas-credential NAME for a name no configured source has: None is no
    such credential (the agent is told "unknown credential"), an exception
    a failure (told that the source failed; counted in credential_failures,
    the last kept as credential_error, warned of). It lives as long as the
    child (until close())."""

    def __init__(self, config, project, args=(), *, stdin=None, stdout=None, stderr=None,
                 work_dir=None, env=None, set_env=None, text=False, encoding=None,
                 errors=None, bufsize=-1, pty=None, credentials=None):
        if isinstance(args, (str, bytes)):
            raise TypeError("ruas: args is a list of arguments, not a string")
        self.args = list(args)
        self.project = project
        self.returncode = None
        self.limit = None
        self.stdin = self.stdout = self.stderr = None
        self._config = config  # the handle stays alive while the child is
        self._h = Handle("child")  # close() frees it after the calls in progress
        self._owner = os.getpid()  # a fork's copy never frees (it would end the parent's agent)
        self._comm = None
        # Kept with the child: the library calls it until the handle is freed.
        self._credentials = _Credentials(credentials) if credentials is not None else None
        stdio = _Stdio(stdin, stdout, stderr)
        try:
            self._start(config, stdio, work_dir, env, set_env, pty)
        except BaseException:
            stdio.close_all()
            raise
        stdio.close_child_ends()
        text_mode = text or encoding is not None or errors is not None
        for i, name in enumerate(("stdin", "stdout", "stderr")):
            if stdio.parent[i]:
                fd, mode = stdio.parent[i]
                f = io.open(fd, mode, bufsize)
                if text_mode:
                    f = io.TextIOWrapper(f, encoding=encoding, errors=errors,
                                         write_through=(i == 0), line_buffering=False)
                setattr(self, name, f)

    def _start(self, config, stdio, work_dir, env, set_env, pty):
        o = _lib.options(_lib.SpawnOptions, _lib.SPAWN_OPTIONS_VERSION)
        o.env = _env_strv(env)
        o.stdin_fd, o.stdout_fd, o.stderr_fd = stdio.child
        o.work_dir = _lib.encode(os.fspath(work_dir)) if work_dir is not None else None
        o.set_env = _entries(set_env, "set_env") if set_env else None
        o.pty = 0 if pty is False else _lib.PTY_AUTO
        # The end record comes when the child is reaped: the callable lives as long.
        self._audit = config._audit
        o.audit = ctypes.pointer(self._audit.sink) if self._audit else None
        if self._credentials:
            o.credential_callback = self._credentials.trampoline
        h, err = _lib.P(), _errors.new_err()
        with config._use() as cfg:
            _errors.check(_lib.lib.ruas_spawn(ctypes.byref(h), cfg, _lib.encode(self.project),
                                              _lib.strv(self.args), ctypes.byref(o),
                                              ctypes.byref(err)), err)
        self._h.h = h
        # sudo's or ruas-session's: os.kill(child.pid, SIGINT) reaches the agent, as
        # send_signal() does (docs/backends.md); agent_pid is the agent's own, for logs.
        self.pid = _lib.lib.ruas_child_pid(h)
        self.agent_pid = _lib.lib.ruas_child_agent_pid(h)
        # The whole command, as Popen's TimeoutExpired.cmd has it: the project's, then args.
        self.cmd = config.project(self.project)["command"] + self.args
        # The audit records' run id, the agent's RUAS_RUN_ID (docs/audit.md).
        self.run_id = _lib.lib.ruas_child_run_id(h).decode("ascii")

    def _use(self):
        return self._h.use()

    @property
    def credential_failures(self) -> int:
        """How many requests the credentials callable raised on (0 without one)."""
        return self._credentials.failures if self._credentials else 0

    @property
    def credential_error(self):
        """The last exception the credentials callable raised, or None."""
        return self._credentials.error if self._credentials else None

    @property
    def pidfd(self) -> int:
        """Readable once the child has ended (for loop.add_reader); -1 without pidfd_open.
        Owned by the child: do not close it."""
        with self._use() as h:
            return _lib.lib.ruas_child_pidfd(h)

    def _record(self, h, code):
        sig = _lib.lib.ruas_child_term_signal(h)
        # Read with the status, while the handle is there (close() frees it), and set
        # before returncode, so that a thread that sees the returncode sees it too. A
        # value this binding does not know yet (a newer libruas) is not taken for none.
        n = _lib.lib.ruas_child_limit(h)
        self.limit = _LIMITS.get(n, "limit %d" % n)
        self.returncode = -sig if sig else code
        return self.returncode

    def poll(self) -> Optional[int]:
        """The returncode once the child has ended (negative: the signal), else None."""
        if self.returncode is not None:
            return self.returncode
        with self._use() as h:
            return self._try_wait(h)

    def _try_wait(self, h):
        code, err = ctypes.c_int(), _errors.new_err()
        r = _errors.check(_lib.lib.ruas_child_try_wait(h, ctypes.byref(code), ctypes.byref(err)),
                          err)
        return None if r == 1 else self._record(h, code.value)

    def wait(self, timeout: Optional[float] = None) -> int:
        """Waits for the end, or raises TimeoutExpired; the GIL is released meanwhile, and
        a signal's handler (KeyboardInterrupt) runs at once, as in Popen.wait()."""
        if self.returncode is not None:
            return self.returncode
        end = None if timeout is None else time.monotonic() + timeout
        with self._use() as h:
            fd = _lib.lib.ruas_child_pidfd(h)
            if fd < 0 and end is None:  # a kernel without pidfd_open
                code, err = ctypes.c_int(), _errors.new_err()
                _errors.check(_lib.lib.ruas_child_wait(h, ctypes.byref(code),
                                                       ctypes.byref(err)), err)
                return self._record(h, code.value)
            waiter = select.poll()
            if fd >= 0:
                waiter.register(fd, select.POLLIN)
            while True:
                rc = self.returncode if self.returncode is not None else self._try_wait(h)
                if rc is not None:
                    return rc
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    raise TimeoutExpired(self.cmd, timeout)
                if fd >= 0:
                    waiter.poll(None if left is None else max(1, int(left * 1000)))
                else:
                    time.sleep(min(left, 0.01))

    def send_signal(self, sig: int) -> None:
        """The signal to the agent's process group (SIGTERM: the tree, as terminate())."""
        if self.returncode is not None:
            return
        with self._use() as h:
            err = _errors.new_err()
            _errors.check(_lib.lib.ruas_child_signal(h, int(sig), ctypes.byref(err)), err)

    def terminate(self) -> None:
        """Ends the agent's whole tree: SIGTERM, then SIGKILL after the project's grace."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """Ends the agent's whole tree at once."""
        self.send_signal(signal.SIGKILL)

    def communicate(self, input: Any = None,
                    timeout: Optional[float] = None) -> Tuple[Any, Any]:
        """As Popen.communicate(): writes input, reads stdout and stderr to their end,
        waits; on TimeoutExpired what was read is kept for the next call."""
        from ._communicate import communicate
        return communicate(self, input, timeout)

    def close(self) -> None:
        """Closes the pipes and frees the handle; a child still running is ended first
        (its whole tree), as libruas frees a handle, and so is a wait() of another
        thread's. Call after wait()."""
        for f in (self.stdin, self.stdout, self.stderr):
            if f:
                try:
                    f.close()
                except OSError:
                    pass
        mine = os.getpid() == self._owner
        # A call in progress on another thread (a wait) ends with the tree.
        h = self._h.take(
            (lambda h: _lib.lib.ruas_child_signal(h, signal.SIGKILL, None)) if mine else None)
        if h and mine:
            _lib.lib.ruas_child_free(h)

    def __enter__(self) -> "Child":
        return self

    def __exit__(self, *exc):
        for f in (self.stdout, self.stderr):
            if f:
                f.close()
        try:
            if self.stdin:
                self.stdin.close()
        except BrokenPipeError:
            pass
        finally:
            if exc[0] is KeyboardInterrupt:
                self.kill()
            self.wait()
            self.close()

    def __del__(self):
        if getattr(self, "_h", None) and os.getpid() == self._owner:
            if self.returncode is None:
                try:
                    if self.poll() is None:
                        warnings.warn("ruas: agent %d of %r is still running: its tree is "
                                      "ended now" % (self.pid, self.project), ResourceWarning)
                except Exception:
                    pass
            try:
                self.close()
            except Exception:
                pass

    def __repr__(self):
        return "<ruas.Child project=%r pid=%s returncode=%r>" % (
            self.project, getattr(self, "pid", None), self.returncode)

