"""The one place where libcoinfolio is loaded and its C functions are declared.

Every ``cf_*`` function of ``include/coinfolio.h`` is declared here exactly once, with its
``argtypes`` and ``restype``. Functions that return a status get :func:`_check_status` as their
``errcheck``, so a failing call raises the matching :class:`~coinfolio.errors.CoinfolioError`.
Strings the library allocates are received as ``c_void_p``, read with ``string_at`` and released
with ``cf_string_free`` in a ``finally`` block (a ``c_char_p`` restype would lose the pointer).

Which library is loaded — one place decides, and ``coinfolio.library_path`` says which:

1. ``$COINFOLIO_LIBRARY`` (the path of a ``libcoinfolio.so``): the only override;
2. an installed package (a wheel, or ``pip install ./bindings/python``) loads the copy inside it,
   ``coinfolio/libcoinfolio.so``, and nothing else: when it cannot be loaded (a system library it
   needs is missing), ``import coinfolio`` raises ImportError quoting the loader's error (which
   names the missing library); no other copy is tried;
3. a checkout used without installing (this package inside a Coinfolio repository, no library
   in it) loads the most recently built of ``<repo>/.build/release/libcoinfolio.so`` and
   ``<repo>/.build/debug/libcoinfolio.so``, or says how to build one.

The system's library path (a ``make install`` copy) is never searched: name it with
``COINFOLIO_LIBRARY``.
"""

from __future__ import annotations

import ctypes
import decimal
import json
import os
import sys
from ctypes import POINTER, Structure, byref, c_char_p, c_double, c_int, c_void_p
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .answers import EXACT_KEYS
from .errors import CF_OK, CoinfolioError, InternalError, InvalidArgument, error_for_status

try:  # The fastest JSON parser present reads the library's answers: orjson when installed.
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the environment
    _orjson = None  # type: ignore[assignment]

#: Which parser reads answers: ``"orjson"`` when the package is installed, else ``"json"``
#: (the standard library). Both give the same dicts, lists, floats and ints.
JSON_PARSER = "orjson" if _orjson is not None else "json"


def parse_answer(data: bytes) -> Any:
    """Parses an answer's UTF-8 JSON bytes with :data:`JSON_PARSER`."""
    if _orjson is not None:
        return _orjson.loads(data)
    return json.loads(data)


#: The ABI version this binding is written against (``CF_ABI_VERSION`` of the header; the one
#: copy in the binding, which tests/test_header.py holds equal to the header's).
ABI_VERSION = 1

#: The environment variable naming the library file.
LIBRARY_ENV = "COINFOLIO_LIBRARY"

if sys.platform == "darwin":
    _LIBRARY_FILE = "libcoinfolio.dylib"
else:
    _LIBRARY_FILE = "libcoinfolio.so"


# --- Opaque handles -----------------------------------------------------------------------------


class cf_store(Structure):
    """Opaque ``cf_store``: the portfolio store (one SQLite file)."""


class cf_client(Structure):
    """Opaque ``cf_client``: a CoinGecko API v3 client."""


class cf_engine(Structure):
    """Opaque ``cf_engine``: store + client + market snapshot."""


cf_store_p = POINTER(cf_store)
cf_client_p = POINTER(cf_client)
cf_engine_p = POINTER(cf_engine)
#: ``char **``: an out-parameter receiving a library-owned string.
c_string_out = POINTER(c_void_p)
#: ``cf_progress_fn``: ``void (*)(const char *progress_json, void *user)``.
cf_progress_fn = ctypes.CFUNCTYPE(None, c_char_p, c_void_p)


# --- Finding and loading the library ------------------------------------------------------------


def _checkout_root() -> Optional[Path]:
    """The repository around this package when it is a checkout (``<repo>/bindings/python/
    coinfolio``, with ``<repo>/Package.swift``); None for an installed copy."""
    package = Path(__file__).resolve().parent
    root = package.parents[2] if len(package.parents) > 2 else package
    if package == root / "bindings" / "python" / "coinfolio" and (root / "Package.swift").is_file():
        return root
    return None


def _locate() -> Tuple[str, str]:
    """The library to load and how it was chosen (for the error message): the override, the
    installed package's own copy, or a checkout's newest build."""
    explicit = os.environ.get(LIBRARY_ENV)
    if explicit:
        return explicit, f"{LIBRARY_ENV}={explicit!r}"
    bundled = Path(__file__).resolve().parent / _LIBRARY_FILE
    if bundled.is_file():
        return str(bundled), f"the package's own library {bundled}"
    root = _checkout_root()
    if root is None:
        raise ImportError(
            f"coinfolio: this installed package has no {_LIBRARY_FILE} (looked in {bundled.parent}): "
            f"reinstall it (pip install --force-reinstall coinfolio-…whl), or set {LIBRARY_ENV} to the "
            f"path of a {_LIBRARY_FILE}"
        )
    builds = [root / ".build" / kind / _LIBRARY_FILE for kind in ("release", "debug")]
    built = sorted((path for path in builds if path.is_file()), key=lambda path: path.stat().st_mtime, reverse=True)
    if not built:
        raise ImportError(
            f"coinfolio: no {_LIBRARY_FILE} in this checkout ({root}): build it with "
            f"`cd {root} && swift build --product coinfolio`, install the package with "
            f"`pip install {root / 'bindings' / 'python'}`, or set {LIBRARY_ENV} to the path of a "
            f"{_LIBRARY_FILE}"
        )
    return str(built[0]), f"this checkout's newest build {built[0]}"


def _load() -> Tuple[ctypes.CDLL, str]:
    path, chosen = _locate()
    try:
        return ctypes.CDLL(path), path
    except OSError as exc:  # the dynamic loader's own words: which library is missing, and where
        raise ImportError(
            f"coinfolio: cannot load {chosen}: {exc}. No other copy is tried: install the library "
            f"the loader names, or set {LIBRARY_ENV} to a {_LIBRARY_FILE} that loads"
        ) from exc


lib, library_path = _load()


# --- Strings ------------------------------------------------------------------------------------


def take_string(pointer: Optional[int]) -> Optional[str]:
    """Reads a library-owned UTF-8 string and frees it with ``cf_string_free``.

    Returns None for a NULL pointer.
    """
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib.cf_string_free(pointer)


def _invalid(message: str, details: Dict[str, str]) -> InvalidArgument:
    """The InvalidArgument the binding raises itself, for an argument the library cannot take."""
    return InvalidArgument(InvalidArgument.STATUS, InvalidArgument.CODE, message, details)


def encode(value: Union[str, bytes, bytearray, memoryview], what: str) -> bytes:
    """Encodes a string argument as UTF-8 for the library.

    ``bytes`` pass unchanged (the library checks them). A ``str`` holding lone surrogates is
    passed as the invalid UTF-8 it encodes to, so the library rejects it with InvalidArgument.
    A NUL byte cannot cross a C string and raises InvalidArgument here.
    """
    if isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise TypeError(f"{what} must be str or bytes, not {type(value).__name__}")
    if b"\x00" in data:
        raise _invalid(f"{what} contains a NUL character", {"argument": what})
    return data


def options(**given: Any) -> Dict[str, Any]:
    """The JSON object of a config or query: the options given, without those that are None.

    None leaves the key out, so the library's default applies (the JSON forms of
    include/coinfolio.h give them); every ``Optional`` option of the binding means that.
    """
    return {key: value for key, value in given.items() if value is not None}


def encode_json(payload: Any, what: str) -> bytes:
    """Serializes a JSON object argument (NaN/Inf are rejected with InvalidArgument)."""
    try:
        text = json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError as exc:
        raise _invalid(f"{what}: {exc}", {"argument": what}) from None
    return encode(text, what)


def encode_holdings(holdings: Any) -> bytes:
    """The batch-write argument ``{"holdings":[{"coin_id","amount"}…]}`` from a sequence of
    ``{"coin_id": str, "amount": number}`` mappings (NaN/Inf rejected with InvalidArgument)."""
    if isinstance(holdings, (str, bytes)) or not hasattr(holdings, "__iter__"):
        raise TypeError("holdings must be a sequence of {'coin_id', 'amount'} mappings")
    entries = []
    for entry in holdings:
        if not hasattr(entry, "keys"):
            raise TypeError("each holding must be a mapping with 'coin_id' and 'amount'")
        entries.append(dict(entry))
    return encode_json({"holdings": entries}, "holdings")


def to_dict(value: Mapping[str, Any], what: str) -> Dict[str, Any]:
    """A JSON object argument as a dict; anything but a mapping (a str, a list, None) raises
    TypeError naming the argument."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a mapping (a dict), not {type(value).__name__}")
    return dict(value)


def to_double(value: float, what: str) -> float:
    """Converts a number argument to a C double; anything but an int or a float (a bool, None, a
    string) raises TypeError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{what} must be a number, not {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        raise _invalid(f"{what} is too large for a double", {"argument": what}) from None


def to_int32(value: int, what: str) -> int:
    """Converts an int argument to a C int, rejecting values that would wrap."""
    number = value.__index__()
    if not -(2**31) <= number < 2**31:
        raise _invalid(f"{what} is out of range: {number}", {"argument": what})
    return number


# --- Error checking -----------------------------------------------------------------------------


def _error_from(status: int, error_slot: Any) -> CoinfolioError:
    pointer: Optional[int] = None
    if isinstance(error_slot, ctypes._Pointer):
        pointer = error_slot.contents.value if error_slot else None
    text = take_string(pointer) if pointer else None
    if text is None:
        return error_for_status(status)
    try:
        payload = json.loads(text)
    except ValueError:
        return error_for_status(status, message=text)
    if not isinstance(payload, dict):
        return error_for_status(status, message=text)
    details = payload.get("details")
    return error_for_status(
        status,
        payload.get("code") if isinstance(payload.get("code"), str) else None,
        payload.get("message") if isinstance(payload.get("message"), str) else None,
        details if isinstance(details, dict) else None,
    )


def _check_status(status: int, func: Any, args: Tuple[Any, ...]) -> int:
    """errcheck of every status-returning function: raises the status's exception.

    The last argument is always the ``char **out_error`` slot made by :func:`error_slot`.
    """
    if status == CF_OK:
        slot = args[-1] if args else None
        if isinstance(slot, ctypes._Pointer) and slot and slot.contents.value:
            take_string(slot.contents.value)  # not expected on success; never leak it
        return status
    raise _error_from(status, args[-1] if args else None)


def _check_string(pointer: Optional[int], func: Any, args: Tuple[Any, ...]) -> str:
    """errcheck of the formatting functions: NULL means an invalid argument."""
    text = take_string(pointer)
    if text is None:
        raise _invalid(f"{func.__name__}: invalid arguments {args!r}", {"function": func.__name__})
    return text


def error_slot() -> "ctypes._Pointer[c_void_p]":
    """A fresh ``char **out_error`` argument (NULL-initialized)."""
    return ctypes.pointer(c_void_p())


def take_bytes(pointer: Optional[int]) -> Optional[bytes]:
    """Reads a library-owned string as bytes (no decoding) and frees it with ``cf_string_free``."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer)
    finally:
        lib.cf_string_free(pointer)


def _call_for_json(func: Callable[..., int], *args: Any) -> bytes:
    """Calls ``func(*args, &out_json, &out_error)`` and returns out_json's bytes (freed here)."""
    out = c_void_p()
    try:
        func(*args, byref(out), error_slot())
        data = take_bytes(out.value)
        out.value = None
    finally:
        if out.value:
            lib.cf_string_free(out.value)
    if data is None:
        raise error_for_status(InternalError.STATUS, message=f"{getattr(func, '__name__', 'cf_*')} returned no JSON")
    return data


def call_json(func: Callable[..., int], *args: Any) -> Any:
    """Calls ``func(*args, &out_json, &out_error)`` and returns the parsed out_json (parsed by
    :func:`parse_answer`: orjson when installed, else the standard library)."""
    return parse_answer(_call_for_json(func, *args))


def call_exact_json(func: Callable[..., int], *args: Any) -> Any:
    """As :func:`call_json` for a ledger answer: parsed by the standard library with every
    number of a key in ``answers.EXACT_KEYS`` a :class:`decimal.Decimal` (its exact text), every
    other number a float or an int as JSON wrote it (orjson has no exact decimals)."""
    return _exact(json.loads(_call_for_json(func, *args), parse_float=decimal.Decimal))


def _exact(value: Any, key: Optional[str] = None) -> Any:
    """``value`` with its numbers typed by their keys (see :func:`call_exact_json`)."""
    if isinstance(value, dict):
        return {name: _exact(item, name) for name, item in value.items()}
    if isinstance(value, list):
        return [_exact(item, key) for item in value]
    if isinstance(value, bool) or value is None:
        return value
    if key in EXACT_KEYS:
        return decimal.Decimal(value) if isinstance(value, int) else value
    if isinstance(value, decimal.Decimal):
        return float(value)
    return value


def call_text(func: Callable[..., int], *args: Any) -> str:
    """Calls ``func(*args, &out_text, &out_error)`` and returns out_text (not JSON: an SVG, a CSV)."""
    out = c_void_p()
    try:
        func(*args, byref(out), error_slot())
        text = take_string(out.value)
        out.value = None
    finally:
        if out.value:
            lib.cf_string_free(out.value)
    if text is None:
        raise error_for_status(10, message=f"{getattr(func, '__name__', 'cf_*')} returned no text")
    return text


def call(func: Callable[..., int], *args: Any) -> None:
    """Calls ``func(*args, &out_error)`` for its effect (raises on failure)."""
    func(*args, error_slot())


# --- Declarations: every function of include/coinfolio.h, once ----------------------------------

_Decl = Tuple[str, Sequence[Any], Any, Optional[Callable[..., Any]]]

_FUNCTIONS: Sequence[_Decl] = (
    # Library
    ("cf_abi_version", (), c_int, None),
    ("cf_version", (), c_char_p, None),  # static storage: c_char_p is right here
    ("cf_string_free", (c_void_p,), None, None),
    # Formatting
    ("cf_format_currency", (c_double, c_int, c_int, c_char_p), c_void_p, _check_string),
    ("cf_format_value", (c_double, c_char_p), c_void_p, _check_string),
    ("cf_format_price", (c_double, c_char_p), c_void_p, _check_string),
    ("cf_format_number", (c_double,), c_void_p, _check_string),
    ("cf_format_percent", (c_double,), c_void_p, _check_string),
    ("cf_format_abbreviated", (c_double,), c_void_p, _check_string),
    # Models
    ("cf_decode_markets", (c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_decode_global", (c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_decode_coin_detail", (c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_decode_market_chart", (c_char_p, c_string_out, c_string_out), c_int, _check_status),
    # Store
    ("cf_store_open", (c_char_p, POINTER(cf_store_p), c_string_out), c_int, _check_status),
    ("cf_store_open_v2", (c_char_p, POINTER(cf_store_p), c_string_out), c_int, _check_status),
    ("cf_store_close", (cf_store_p,), None, None),
    ("cf_store_set_holding", (cf_store_p, c_char_p, c_double, c_string_out), c_int, _check_status),
    ("cf_store_set_holdings", (cf_store_p, c_char_p, c_string_out), c_int, _check_status),
    ("cf_store_holdings", (cf_store_p, c_string_out, c_string_out), c_int, _check_status),
    # Client
    ("cf_client_open", (c_char_p, POINTER(cf_client_p), c_string_out), c_int, _check_status),
    ("cf_client_close", (cf_client_p,), None, None),
    ("cf_client_markets", (cf_client_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_client_global", (cf_client_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_client_coin_detail", (cf_client_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_client_market_chart", (cf_client_p, c_char_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_client_market_chart_range", (cf_client_p, c_char_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_client_simple_price", (cf_client_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    # Engine
    ("cf_engine_open", (c_char_p, POINTER(cf_engine_p), c_string_out), c_int, _check_status),
    ("cf_engine_close", (cf_engine_p,), None, None),
    ("cf_engine_refresh", (cf_engine_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_load", (cf_engine_p, c_char_p, c_char_p, c_string_out), c_int, _check_status),
    ("cf_engine_coins", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_portfolio", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_statistics", (cf_engine_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_set_holding", (cf_engine_p, c_char_p, c_double, c_string_out), c_int, _check_status),
    ("cf_engine_set_holdings", (cf_engine_p, c_char_p, c_string_out), c_int, _check_status),
    ("cf_engine_coin_statistics", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_coin_detail", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_metrics", (cf_engine_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_chart", (cf_engine_p, c_char_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_portfolio_history", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_refresh_prices", (cf_engine_p, c_string_out, c_string_out), c_int, _check_status),
    # Charts
    ("cf_chart_svg", (c_char_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    # Ledger
    ("cf_engine_add_transaction", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_add_trade", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_move", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_delete_transaction", (cf_engine_p, c_char_p, c_string_out), c_int, _check_status),
    ("cf_engine_transactions", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_pnl", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_portfolios", (cf_engine_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_create_portfolio", (cf_engine_p, c_char_p, c_string_out), c_int, _check_status),
    ("cf_engine_rename_portfolio", (cf_engine_p, c_char_p, c_char_p, c_string_out), c_int, _check_status),
    ("cf_engine_delete_portfolio", (cf_engine_p, c_char_p, c_int, c_string_out), c_int, _check_status),
    ("cf_engine_import_csv", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_import", (cf_engine_p, c_char_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_export_csv", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    # Prices in the past
    ("cf_engine_price_at", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_set_price", (cf_engine_p, c_char_p, c_string_out), c_int, _check_status),
    ("cf_engine_fill_prices", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_set_progress", (cf_engine_p, cf_progress_fn, c_void_p, c_string_out), c_int, _check_status),
    # Returns and taxes
    ("cf_engine_performance", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
    ("cf_engine_realized", (cf_engine_p, c_char_p, c_string_out, c_string_out), c_int, _check_status),
)


def _declare() -> None:
    missing = []
    for name, argtypes, restype, errcheck in _FUNCTIONS:
        try:
            func = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        func.argtypes = list(argtypes)
        func.restype = restype
        if errcheck is not None:
            func.errcheck = errcheck
    if missing:
        raise ImportError(
            f"coinfolio: {library_path} does not export {', '.join(missing)} "
            f"(set {LIBRARY_ENV} to a current build)"
        )


_declare()

_loaded_abi = lib.cf_abi_version()
if _loaded_abi != ABI_VERSION:
    raise ImportError(
        f"coinfolio: {library_path} has ABI version {_loaded_abi}, this binding needs "
        f"{ABI_VERSION} (set {LIBRARY_ENV} to a matching build)"
    )
