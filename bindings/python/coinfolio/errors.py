"""Exceptions raised by the coinfolio binding.

Every failing ``cf_*`` call returns a status code (see ``include/coinfolio.h``) and an error
object ``{"status": N, "code": "...", "message": "...", "details": {...}}``; the binding raises
the subclass of :class:`CoinfolioError` that belongs to the status.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Dict, Mapping, Optional, Type

#: ``CF_OK``: the status of a call that succeeded. Each failure status is the ``STATUS`` of its
#: class below, with the code string ``CODE``: together the binding's one table of statuses, which
#: tests/test_header.py holds equal to the ``CF_*`` list of include/coinfolio.h.
CF_OK = 0

__all__ = [
    "DetailKey",
    "Reason",
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


class DetailKey(str, Enum):
    """The keys of an error's ``details``: every key the library writes there.

    The same list, in the same order, as the ``CF_DETAIL_*`` macros of include/coinfolio.h
    (which say what each holds and which errors carry it) and Swift's
    ``CoinfolioError.DetailKey``; tests/test_header.py holds it equal to the header. A member
    compares equal to its string; read a detail as ``error.details[DetailKey.FIELD.value]``.
    Errors the binding raises before calling the library (a NUL in a string, a file it cannot
    read) carry their own keys: ``argument``, ``function``, ``path``.
    """

    REASON = "reason"
    INPUT = "input"
    OFFSET = "offset"
    FIELD = "field"
    SUGGESTION = "suggestion"
    INDEX = "index"
    COIN_ID = "coin_id"
    VS_CURRENCY = "vs_currency"
    TIMESTAMP = "timestamp"
    SHORT_BY = "short_by"
    PORTFOLIO = "portfolio"
    TRANSACTIONS = "transactions"
    ID = "id"
    FROM_CURRENCY = "from_currency"
    TO_CURRENCY = "to_currency"
    LINE = "line"
    COLUMN = "column"
    FIELD_INDEX = "field_index"
    HEADER = "header"
    FORMATS = "formats"
    SYMBOLS = "symbols"
    HTTP_STATUS = "http_status"
    ERROR_CODE = "error_code"
    RETRY_AFTER_S = "retry_after_s"
    SENT = "sent"
    MAX_BODY_BYTES = "max_body_bytes"
    VARIABLE = "variable"
    URL_ERROR = "url_error"
    SQLITE_CODE = "sqlite_code"
    SQLSTATE = "sqlstate"
    CONNECTION_LOST = "connection_lost"


class Reason(str, Enum):
    """Why a call failed, beyond its status: every value ``details["reason"]`` takes.

    The same list, in the same order, as the ``CF_REASON_*`` macros of include/coinfolio.h
    (which say when each occurs) and Swift's ``CoinfolioError.Reason``; tests/test_header.py
    holds it equal to the header. A member compares equal to its string
    (``Reason.TIMEOUT == "timeout"``); :attr:`CoinfolioError.reason` gives it.
    """

    #: InvalidArgument: a JSON input is not RFC 8259 JSON (``details["offset"]``: the byte).
    MALFORMED_JSON = "malformed_json"
    #: InvalidArgument: a JSON string escapes a surrogate outside a high-low pair.
    LONE_SURROGATE = "lone_surrogate"
    #: InvalidArgument: a JSON number beyond ±1.8e308, wherever it stands.
    NUMBER_OUT_OF_RANGE = "number_out_of_range"
    #: InvalidArgument: JSON nested deeper than 512 arrays and objects.
    TOO_DEEP = "too_deep"
    #: InvalidArgument: an input's bytes are not UTF-8.
    BAD_UTF8 = "bad_utf8"
    #: InvalidArgument: a database path starting with ``file:`` (an SQLite URI).
    SQLITE_URI = "sqlite_uri"
    #: InvalidArgument: a database string holding ``://`` that is no ``postgresql://`` URL.
    UNSUPPORTED_URL = "unsupported_url"
    #: StoreError: a PostgreSQL URL whose user or password holds an unencoded ``@``, ``/`` or ``?``.
    AMBIGUOUS_URL = "ambiguous_url"
    #: InvalidArgument: a PostgreSQL URL given to a library built without PostgreSQL (SQLite only).
    POSTGRES_DISABLED = "postgres_disabled"
    #: InvalidArgument: a holding's coin id with a ``,``.
    COMMA = "comma"
    #: InvalidArgument: a CSV number with a thousands separator (``"11,426.20"``).
    THOUSANDS_SEPARATOR = "thousands_separator"
    #: InvalidArgument: a CSV number with a decimal comma (``"1,5"``).
    DECIMAL_COMMA = "decimal_comma"
    #: InvalidArgument: a CSV number whose one comma could be either (``"1,234"``).
    AMBIGUOUS_COMMA = "ambiguous_comma"
    #: InvalidArgument: a ledger change whose amount, price or sum would pass ±8.5e19.
    OUT_OF_RANGE = "out_of_range"
    #: InvalidArgument: a move between portfolios of different currencies, or a realized or
    #: performance report over every portfolio when they differ.
    CURRENCY = "currency"
    #: InvalidArgument: a ``vs_currency`` or ``price_currency`` CoinGecko does not price in.
    UNKNOWN_CURRENCY = "unknown_currency"
    #: InvalidArgument (:meth:`Engine.import_file`): a header that is no known format's
    #: (``details["header"]``, ``details["formats"]``).
    UNKNOWN_FORMAT = "unknown_format"
    #: InvalidArgument (:meth:`Engine.import_file`): symbols that name no one coin
    #: (``details["symbols"]``: each ``{"symbol", "candidates"}``); nothing was written.
    UNKNOWN_SYMBOLS = "unknown_symbols"
    #: InvalidArgument: a call from a progress function that would wait for the call reporting.
    REENTRANT = "reentrant"
    #: DecodeError (refresh) or InvalidArgument (load): a first markets page with no coin.
    NO_COINS = "no_coins"
    #: StoreError: no answer within ``database_timeout``; NetworkError: none within ``timeout_ms``.
    TIMEOUT = "timeout"
    #: NetworkError: the answer could not be decoded within the call's time bound.
    DEADLINE = "deadline"
    #: HTTPError: an answer body larger than ``max_body_bytes`` (after decompression).
    BODY_TOO_LARGE = "body_too_large"
    #: Unauthorized: CoinGecko's error 10012, history beyond the plan's 365 days.
    HISTORY_LIMIT = "history_limit"
    #: NoData (:meth:`Engine.price_at`): CoinGecko does not know the coin.
    UNKNOWN_COIN = "unknown_coin"
    #: NoData (:meth:`Engine.price_at`): no point that UTC day, stored or sent.
    NO_POINT = "no_point"
    #: NetworkError: a proxy variable would carry a loopback request; nothing was sent.
    PROXY = "proxy"
    #: NetworkError: the host refused the connection.
    CONNECTION_REFUSED = "connection_refused"
    #: NetworkError: the host name could not be resolved.
    DNS = "dns"
    #: NetworkError: the connection closed before a complete answer.
    CONNECTION_LOST = "connection_lost"
    #: NetworkError: not connected to a network.
    OFFLINE = "offline"
    #: NetworkError: the TLS handshake or the server's certificate failed.
    TLS = "tls"
    #: NetworkError: the answer ended before its declared length.
    TRUNCATED = "truncated"
    #: NetworkError: any other transfer failure (``details["url_error"]`` when known).
    OTHER = "other"


class CoinfolioError(Exception):
    """A failed Coinfolio call.

    Attributes:
        status: the C status code (``CF_INVALID_ARGUMENT`` = 1 … ``CF_INTERNAL`` = 10).
        code: the stable code string, e.g. ``"invalid_argument"``.
        message: a human-readable message (never contains the API key).
        details: extra facts as a dict, e.g. ``{"http_status": 503}``; may be empty. Values are
            JSON values: numbers, strings, booleans, lists and dicts.
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
        value = self.details.get(DetailKey.HTTP_STATUS.value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return int(value)

    @property
    def reason(self) -> Optional[Reason]:
        """``details["reason"]`` as a :class:`Reason`, or None when the error has none."""
        value = self.details.get(DetailKey.REASON.value)
        try:
            return Reason(value) if isinstance(value, str) else None
        except ValueError:
            return None

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
        value = self.details.get(DetailKey.RETRY_AFTER_S.value)
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
    """Status 8: the database (SQLite or PostgreSQL) failed; the message is the database's own,
    without a password (``details["sqlite_code"]`` or ``details["sqlstate"]`` when it gave one)."""

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
