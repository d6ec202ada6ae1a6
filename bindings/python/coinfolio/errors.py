"""Exceptions raised by the coinfolio binding.

Every failing ``cf_*`` call returns a status code (see ``include/coinfolio.h``) and an error
object ``{"status": N, "code": "...", "message": "...", "details": {...}}``; the binding raises
the subclass of :class:`CoinfolioError` that belongs to the status.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type

#: ``CF_OK``: the status of a call that succeeded. Each failure status is the ``STATUS`` of its
#: class below, with the code string ``CODE``: together the binding's one table of statuses, which
#: tests/test_header.py holds equal to the ``CF_*`` list of include/coinfolio.h.
CF_OK = 0

__all__ = [
    "CoinfolioError",
    "InvalidArgument",
    "NotFound",
    "NetworkError",
    "HTTPError",
    "RateLimited",
    "Unauthorized",
    "DecodeError",
    "StoreError",
    "NoData",
    "InternalError",
    "error_for_status",
]


class CoinfolioError(Exception):
    """A failed Coinfolio call.

    Attributes:
        status: the C status code (``CF_INVALID_ARGUMENT`` = 1 … ``CF_INTERNAL`` = 10).
        code: the stable code string, e.g. ``"invalid_argument"``.
        message: a human-readable message (never contains the API key).
        details: extra facts as a dict, e.g. ``{"http_status": 503}``; may be empty.
    """

    #: The status this class stands for (the base class: none in particular).
    STATUS: int = -1
    #: The code string of that status.
    CODE: str = "error"

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: Optional[Mapping[str, Any]] = None,
    ) -> None:
        super().__init__(status, code, message, dict(details or {}))
        self.status: int = status
        self.code: str = code
        self.message: str = message
        self.details: Dict[str, Any] = dict(details or {})

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"

    @property
    def http_status(self) -> Optional[int]:
        """The HTTP status of the answer behind a network-side error (``details["http_status"]``),
        or None: set on HTTPError and, when an answer came, RateLimited, Unauthorized, NotFound."""
        value = self.details.get("http_status")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return int(value)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status!r}, code={self.code!r}, "
            f"message={self.message!r}, details={self.details!r})"
        )


class InvalidArgument(CoinfolioError, ValueError):
    """Status 1: NULL, bad UTF-8, malformed JSON, NaN/Inf, a bad coin id, a bad option."""

    STATUS = 1
    CODE = "invalid_argument"


class NotFound(CoinfolioError):
    """Status 2: HTTP 404 or an unknown coin id."""

    STATUS = 2
    CODE = "not_found"


class NetworkError(CoinfolioError):
    """Status 3: connect/DNS/TLS failure or a timeout."""

    STATUS = 3
    CODE = "network"


class HTTPError(CoinfolioError):
    """Status 4: any other non-2xx answer. ``http_status`` is ``details["http_status"]``."""

    STATUS = 4
    CODE = "http"


class RateLimited(CoinfolioError):
    """Status 5: HTTP 429. ``retry_after_s`` is the Retry-After wait in seconds, or None.

    Also raised without sending anything while a remembered Retry-After runs: then
    ``details["sent"] is False`` and ``retry_after_s`` is the seconds left."""

    STATUS = 5
    CODE = "rate_limited"

    @property
    def retry_after_s(self) -> Optional[float]:
        """Seconds the server asked to wait (``Retry-After``), or None when not given."""
        value = self.details.get("retry_after_s")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return value


class Unauthorized(CoinfolioError):
    """Status 6: HTTP 401, or API error codes 10002/10005/10010/10011/10012 (missing or wrong
    key, or a range the plan may not ask for); ``details["error_code"]`` holds the code. A 403
    without such a code (a CDN's block page) is an HTTPError instead."""

    STATUS = 6
    CODE = "unauthorized"


class DecodeError(CoinfolioError):
    """Status 7: a 2xx body, or a body given to a decoder, that is not the expected JSON shape."""

    STATUS = 7
    CODE = "decode"


class StoreError(CoinfolioError):
    """Status 8: SQLite failed; the message is SQLite's own."""

    STATUS = 8
    CODE = "store"


class NoData(CoinfolioError):
    """Status 9: no market snapshot yet (call ``refresh()`` or ``load()`` first)."""

    STATUS = 9
    CODE = "no_data"


class InternalError(CoinfolioError):
    """Status 10: a bug in Coinfolio (please report it)."""

    STATUS = 10
    CODE = "internal"


_BY_STATUS: Dict[int, Type[CoinfolioError]] = {
    cls.STATUS: cls
    for cls in (
        InvalidArgument,
        NotFound,
        NetworkError,
        HTTPError,
        RateLimited,
        Unauthorized,
        DecodeError,
        StoreError,
        NoData,
        InternalError,
    )
}


def error_for_status(
    status: int,
    code: Optional[str] = None,
    message: Optional[str] = None,
    details: Optional[Mapping[str, Any]] = None,
) -> CoinfolioError:
    """Builds the exception for a status code (an unknown status gives a plain CoinfolioError)."""
    cls = _BY_STATUS.get(status, CoinfolioError)
    return cls(
        status,
        code or (cls.CODE if cls is not CoinfolioError else f"status_{status}"),
        message or f"coinfolio call failed with status {status}",
        details,
    )
