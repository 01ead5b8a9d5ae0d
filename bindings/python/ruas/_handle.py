# SPDX-License-Identifier: ISC
"""_handle - a C handle that close() frees only once no call on it is in progress."""
import contextlib
import threading


class Handle:
    """Holds a ruas_* pointer: use() lends it for the length of a call, take()
    detaches it for the free, after the calls in progress on other threads."""

    def __init__(self, what):
        self.h = None
        self._what = what
        self._cond = threading.Condition()
        self._users = 0

    def __bool__(self):
        return bool(self.h)

    @contextlib.contextmanager
    def use(self):
        with self._cond:
            if not self.h:
                raise ValueError("ruas: the %s is closed" % self._what)
            self._users += 1
            h = self.h
        try:
            yield h
        finally:
            with self._cond:
                self._users -= 1
                self._cond.notify_all()

    def take(self, while_busy=None):
        """The pointer (or None), once nobody uses it; while_busy(h) is called every
        0.1 s meanwhile (a child ends its tree, so that a wait returns)."""
        with self._cond:
            h, self.h = self.h, None
            while h and self._users:
                if while_busy:
                    while_busy(h)
                self._cond.wait(0.1)
        return h
