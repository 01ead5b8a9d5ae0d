# SPDX-License-Identifier: ISC
"""ruas.asyncio - an agent as asyncio.subprocess.Process: spawn() returns an
object with its interface (stdin a StreamWriter, stdout and stderr
StreamReaders, await wait(), await communicate()), waiting on the child's
pidfd with loop.add_reader(), not on a thread."""
import asyncio as _aio
import functools
from typing import Optional

from ._child import DEVNULL, PIPE, STDOUT  # noqa: F401  (for callers: ruas.asyncio.PIPE)

__all__ = ["spawn", "Process", "PIPE", "DEVNULL", "STDOUT"]


class _WriteProtocol(_aio.streams.FlowControlMixin):
    """What StreamWriter needs of a pipe's protocol: flow control and a close waiter."""

    def __init__(self, loop):
        super().__init__(loop=loop)
        self._closed = loop.create_future()

    def connection_lost(self, exc):
        super().connection_lost(exc)
        if not self._closed.done():
            self._closed.set_result(None)

    def _get_close_waiter(self, stream):
        return self._closed


class Process:
    """asyncio.subprocess.Process's interface over a ruas.Child."""

    def __init__(self, child, loop):
        self._child = child
        self._loop = loop
        self._exit = None
        self.stdin = self.stdout = self.stderr = None

    @property
    def pid(self) -> int:
        return self._child.pid

    @property
    def agent_pid(self) -> int:
        return self._child.agent_pid

    @property
    def returncode(self) -> Optional[int]:
        return self._child.returncode

    @property
    def limit(self) -> Optional[str]:
        """The project's limit that ended the agent (ruas.Child.limit): None,
        "memory", "tasks" or "time"."""
        return self._child.limit

    async def _connect(self, limit):
        c, loop = self._child, self._loop
        if c.stdin:
            t, p = await loop.connect_write_pipe(lambda: _WriteProtocol(loop), c.stdin)
            self.stdin = _aio.StreamWriter(t, p, None, loop)
        for name in ("stdout", "stderr"):
            f = getattr(c, name)
            if f:
                reader = _aio.StreamReader(limit=limit, loop=loop)
                await loop.connect_read_pipe(
                    lambda r=reader: _aio.StreamReaderProtocol(r, loop=loop), f)
                setattr(self, name, reader)

    def _ended(self):
        if self._child.poll() is not None and not self._exit.done():
            self._loop.remove_reader(self._child.pidfd)
            self._exit.set_result(self._child.returncode)

    async def wait(self) -> int:
        """The returncode (negative: the signal), once the agent has ended."""
        if self._child.returncode is not None:
            return self._child.returncode
        fd = self._child.pidfd
        if fd < 0:
            return await self._loop.run_in_executor(None, self._child.wait)
        if self._exit is None:
            self._exit = self._loop.create_future()
            self._loop.add_reader(fd, self._ended)
            self._ended()  # it may have ended already
        return await _aio.shield(self._exit)

    async def communicate(self, input=None):
        """Writes input, reads stdout and stderr to their end, waits: (stdout, stderr)."""
        async def feed():
            if self.stdin is None:
                return
            try:
                if input:
                    self.stdin.write(input)
                    await self.stdin.drain()
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.stdin.close()

        async def read(stream):
            return None if stream is None else await stream.read()

        _, out, err = await _aio.gather(feed(), read(self.stdout), read(self.stderr))
        await self.wait()
        return out, err

    def send_signal(self, sig: int) -> None:
        self._child.send_signal(sig)

    def terminate(self) -> None:
        self._child.terminate()

    def kill(self) -> None:
        self._child.kill()

    def __del__(self):
        if self._exit is not None and not self._exit.done():
            try:
                self._loop.remove_reader(self._child.pidfd)
            except Exception:
                pass


async def spawn(config, project, args=(), *, stdin=None, stdout=None, stderr=None,
                work_dir=None, env=None, set_env=None, pty=None, credentials=None,
                limit=2 ** 16):
    """Starts project's command as Config.spawn() does (in the loop's executor: the
    start waits for sudo and the helper), with asyncio streams for its pipes."""
    loop = _aio.get_running_loop()
    child = await loop.run_in_executor(None, functools.partial(
        config.spawn, project, args, stdin=stdin, stdout=stdout, stderr=stderr,
        work_dir=work_dir, env=env, set_env=set_env, pty=pty, credentials=credentials))
    proc = Process(child, loop)
    try:
        await proc._connect(limit)
    except BaseException:
        child.kill()
        child.wait()
        child.close()
        raise
    return proc
