# SPDX-License-Identifier: ISC
"""_communicate - Child.communicate(), as subprocess.Popen's on POSIX: one selector
over the pipes, input written in chunks, output kept across a timeout."""
import os
import select
import selectors
import time

from ._child import TimeoutExpired

# What select() says a pipe takes without blocking, as Popen writes: a
# larger write into a blocking pipe could wait for an agent that waits for
# us to read its output.
_CHUNK = select.PIPE_BUF


class _State:
    def __init__(self, child, data):
        self.input = data or b""
        self.offset = 0
        self.out = {}
        for f in (child.stdout, child.stderr):
            if f:
                self.out[f] = []


def _raw(f):
    """The binary file under a text one, so that reads are of bytes."""
    return getattr(f, "buffer", f)


def _start(child, input):
    if child._comm is None:
        data = input
        if data is not None and child.stdin and hasattr(child.stdin, "encoding"):
            data = data.encode(child.stdin.encoding, child.stdin.errors or "strict")
        child._comm = _State(child, data)
        if child.stdin:
            try:
                child.stdin.flush()
            except BrokenPipeError:
                pass
            if not child._comm.input:
                child.stdin.close()
    return child._comm


def _serve(child, st, sel, key):
    f = key.fileobj
    if f is child.stdin:
        chunk = st.input[st.offset:st.offset + _CHUNK]
        try:
            st.offset += os.write(key.fd, chunk)
        except BrokenPipeError:
            st.offset = len(st.input)
        if st.offset >= len(st.input):
            sel.unregister(f)
            f.close()
    else:
        data = os.read(key.fd, 32768)
        if not data:
            sel.unregister(f)
            f.close()
        else:
            st.out[f].append(data)


def _result(child, st, f):
    if f is None:
        return None
    data = b"".join(st.out[f])
    if hasattr(f, "encoding"):
        data = data.decode(f.encoding, f.errors or "strict")
        data = data.replace("\r\n", "\n")
    return data


def communicate(child, input, timeout):
    st = _start(child, input)
    end = None if timeout is None else time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        if child.stdin and not child.stdin.closed and st.offset < len(st.input):
            sel.register(child.stdin, selectors.EVENT_WRITE)
        for f in st.out:
            if not f.closed:
                sel.register(f, selectors.EVENT_READ)
        while sel.get_map():
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutExpired(child.cmd, timeout)
            for key, _ in sel.select(left):
                _serve(child, st, sel, key)
    child.wait(None if end is None else max(0.0, end - time.monotonic()))
    out, err = _result(child, st, child.stdout), _result(child, st, child.stderr)
    child._comm = None
    return out, err
