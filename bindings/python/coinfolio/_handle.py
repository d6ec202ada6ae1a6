"""The base of the handle classes (Store, Client, Engine): ownership of one C pointer."""

from __future__ import annotations

import contextlib
import threading
from types import TracebackType
from typing import Any, Callable, Iterator, Optional, Type, TypeVar

from .errors import InvalidArgument

_H = TypeVar("_H", bound="Handle")


class Handle:
    """Owns one ``cf_*`` handle.

    ``close()`` is idempotent and thread-safe: it waits for calls running on other threads to
    return before the C handle is closed, and later calls raise :class:`InvalidArgument`.
    ``__del__`` closes a forgotten handle and is safe during interpreter shutdown.
    """

    _pointer: Any = None
    _cond: Optional[threading.Condition] = None

    def __init__(self, pointer: Any, closer: Callable[[Any], None]) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._users = 0
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
        try:
            yield pointer
        finally:
            with cond:
                self._users -= 1
                if self._users == 0:
                    cond.notify_all()

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
