"""_child - ruas.Child, the subprocess.Popen of an agent started through ruas."""
import ctypes
import io
import os
import select
import signal
import subprocess
import threading
import time
import warnings

from . import _errors, _lib

PIPE = subprocess.PIPE
DEVNULL = subprocess.DEVNULL
STDOUT = subprocess.STDOUT
TimeoutExpired = subprocess.TimeoutExpired


def _env_strv(env):
    """A mapping (or None: a copy of os.environ now, as no other thread's setenv() can race)."""
    items = (os.environ if env is None else env).items()
    return _lib.strv([_lib.encode(k) + b"=" + _lib.encode(v) for k, v in items])


class _Stdio:
    """The descriptors the agent gets, and the ends this side keeps, as Popen makes them."""

    def __init__(self, stdin, stdout, stderr):
        self.child = [-1, -1, -1]   # what ruas_spawn() duplicates; closed after it
        self.parent = [None, None, None]  # (fd, mode) of our PIPE ends
        self.devnull = None
        self._owned = []  # our pipes' child ends
        self._take(0, stdin, "wb")
        self._take(1, stdout, "rb")
        if stderr == STDOUT:
            self.child[2] = self.child[1] if self.child[1] >= 0 else 1
        else:
            self._take(2, stderr, "rb")

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
        for p in self.parent:
            if p:
                os.close(p[0])


class Child:
    """An agent started with Config.spawn(), as subprocess.Popen: pid, stdin,
    stdout, stderr, poll(), wait(), returncode, send_signal(), terminate(),
    kill(), communicate(), a context manager. Behind sudo or ruas-session,
    signals go to the agent's process group through the helper, and
    terminate() ends the agent's whole tree with the project's grace.

    stdin, stdout and stderr take None (inherit), PIPE, DEVNULL, a descriptor
    or a file object (stderr also STDOUT); work_dir is a directory beneath
    the project's; env is the mapping the project's allowlisted values come
    from (None: os.environ); set_env gives values not in env. pty: None
    (the default, a pty of its own when stdin is a terminal, relayed by the
    library) or False (never)."""

    def __init__(self, config, project, args=(), *, stdin=None, stdout=None, stderr=None,
                 work_dir=None, env=None, set_env=None, text=False, encoding=None,
                 errors=None, bufsize=-1, pty=None):
        if isinstance(args, (str, bytes)):
            raise TypeError("ruas: args is a list of arguments, not a string")
        self.args = list(args)
        self.project = project
        self.returncode = None
        self.stdin = self.stdout = self.stderr = None
        self._config = config  # the handle stays alive while the child is
        self._h = None
        self._owner = os.getpid()  # a fork's copy never frees (it would end the parent's agent)
        self._lock = threading.Lock()
        self._comm = None
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
        o = _lib.SpawnOptions()
        o.version = _lib.SPAWN_OPTIONS_VERSION
        o.env = _env_strv(env)
        o.stdin_fd, o.stdout_fd, o.stderr_fd = stdio.child
        o.work_dir = _lib.encode(os.fspath(work_dir)) if work_dir is not None else None
        o.set_env = _lib.strv([_lib.encode(k) + b"=" + _lib.encode(v)
                               for k, v in set_env.items()]) if set_env else None
        o.pty = 0 if pty is False else _lib.PTY_AUTO
        o.pty_relay = _lib.PTY_RELAY_LIBRARY
        h, err = _lib.P(), _errors.new_err()
        _errors.check(_lib.lib.ruas_spawn(ctypes.byref(h), config._handle(),
                                          _lib.encode(self.project),
                                          _lib.strv(self.args), ctypes.byref(o),
                                          ctypes.byref(err)), err)
        self._h = h
        self.pid = _lib.lib.ruas_child_pid(h)

    @property
    def pidfd(self) -> int:
        """Readable once the child has ended (for loop.add_reader); -1 without pidfd_open.
        Owned by the child: do not close it."""
        return _lib.lib.ruas_child_pidfd(self._handle())

    def _handle(self):
        if not self._h:
            raise ValueError("ruas: the child has been closed")
        return self._h

    def _record(self, code):
        sig = _lib.lib.ruas_child_term_signal(self._h)
        self.returncode = -sig if sig else code
        return self.returncode

    def poll(self):
        """The returncode once the child has ended (negative: the signal), else None."""
        if self.returncode is not None:
            return self.returncode
        code, err = ctypes.c_int(), _errors.new_err()
        r = _errors.check(_lib.lib.ruas_child_try_wait(self._handle(), ctypes.byref(code),
                                                       ctypes.byref(err)), err)
        return None if r == 1 else self._record(code.value)

    def wait(self, timeout=None):
        """Waits for the end (GIL released), or raises TimeoutExpired."""
        if self.returncode is not None:
            return self.returncode
        if timeout is None:
            code, err = ctypes.c_int(), _errors.new_err()
            _errors.check(_lib.lib.ruas_child_wait(self._handle(), ctypes.byref(code),
                                                   ctypes.byref(err)), err)
            return self._record(code.value)
        end = time.monotonic() + timeout
        fd = self.pidfd
        while True:
            rc = self.poll()
            if rc is not None:
                return rc
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutExpired(self.args, timeout)
            if fd >= 0:
                select.select([fd], [], [], left)
            else:
                time.sleep(min(left, 0.01))

    def send_signal(self, sig):
        """The signal to the agent's process group (SIGTERM: the tree, as terminate())."""
        if self.returncode is not None:
            return
        err = _errors.new_err()
        _errors.check(_lib.lib.ruas_child_signal(self._handle(), int(sig), ctypes.byref(err)),
                      err)

    def terminate(self):
        """Ends the agent's whole tree: SIGTERM, then SIGKILL after the project's grace."""
        self.send_signal(signal.SIGTERM)

    def kill(self):
        """Ends the agent's whole tree at once."""
        self.send_signal(signal.SIGKILL)

    def communicate(self, input=None, timeout=None):
        """As Popen.communicate(): writes input, reads stdout and stderr to their end,
        waits; on TimeoutExpired what was read is kept for the next call."""
        from ._communicate import communicate
        return communicate(self, input, timeout)

    def close(self):
        """Closes the pipes and frees the handle; a child still running is ended first
        (its whole tree), as libruas frees a handle. Call after wait()."""
        for f in (self.stdin, self.stdout, self.stderr):
            if f:
                try:
                    f.close()
                except OSError:
                    pass
        with self._lock:
            h, self._h = self._h, None
        if h and os.getpid() == self._owner:
            _lib.lib.ruas_child_free(h)

    def __enter__(self):
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

