"""The base of the handle classes (Store, Client, Engine): ownership of one C pointer."""

from __future__ import annotations

import contextlib
import threading
from types import TracebackType
from typing import Any, Callable, Dict, Iterator, Optional, Type, TypeVar

from .errors import InvalidArgument

_H = TypeVar("_H", bound="Handle")


class Handle:
    """Owns one ``cf_*`` handle.

    ``close()`` is idempotent and thread-safe: it waits for calls running on other threads to
    return before the C handle is closed, and later calls raise :class:`InvalidArgument`. Called
    from inside one of the handle's own calls (a progress callback), it cannot wait for that
    call: the handle is then closed when the call returns.
    ``__del__`` closes a forgotten handle and is safe during interpreter shutdown.
    """

    _pointer: Any = None
    _cond: Optional[threading.Condition] = None

    def __init__(self, pointer: Any, closer: Callable[[Any], None]) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._users = 0
        # Calls in progress per thread, so that close() from inside one never waits for itself.
        self._users_by_thread: Dict[int, int] = {}
        self._deferred_close: Any = None
        # Keep the close function on the instance: module globals may be gone at shutdown.
        self._closer = closer
        self._pointer = pointer

    @property
    def closed(self) -> bool:
        """True once ``close()`` has been called."""
        return not self._pointer

    @contextlib.contextmanager
    def _borrow(self) -> Iterator[Any]:
        cond = self._cond
        if cond is None:
            raise self._closed_error()
        with cond:
            pointer = self._pointer
            if not pointer:
                raise self._closed_error()
            self._users += 1
            thread = threading.get_ident()
            self._users_by_thread[thread] = self._users_by_thread.get(thread, 0) + 1
        try:
            yield pointer
        finally:
            deferred = None
            with cond:
                self._users -= 1
                if self._users_by_thread[thread] == 1:
                    del self._users_by_thread[thread]
                else:
                    self._users_by_thread[thread] -= 1
                if self._users == 0:
                    cond.notify_all()
                    deferred, self._deferred_close = self._deferred_close, None
            if deferred is not None:
                self._closer(deferred)

    def _closed_error(self) -> InvalidArgument:
        return InvalidArgument(InvalidArgument.STATUS, InvalidArgument.CODE, f"{type(self).__name__} is closed", {})

    def close(self) -> None:
        """Releases the C handle. Safe to call more than once and from any thread."""
        cond = self._cond
        if cond is None:
            return
        with cond:
            pointer = self._pointer
            if not pointer:
                return
            self._pointer = None
            if threading.get_ident() in self._users_by_thread:
                # Inside one of this handle's own calls: the last call to return closes it.
                self._deferred_close = pointer
                return
            while self._users:
                cond.wait()
        self._closer(pointer)

    def __enter__(self: _H) -> _H:
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass
