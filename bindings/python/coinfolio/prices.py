"""Prices in the past (SPEC §17): the price at a time, manual prices, filling pending prices.

The methods of :class:`coinfolio.Engine` for prices; see ``include/coinfolio.h`` ("Prices in the
past") for the rule and every status.
"""

from __future__ import annotations

from typing import Optional, Union

from . import _ffi
from ._amounts import Amount, decimal_payload
from ._handle import Handle
from .answers import PriceAt, PriceFill

__all__ = ["PriceMethods"]


class PriceMethods(Handle):
    """:class:`coinfolio.Engine`'s price calls (a base class of it, not used alone)."""

    def price_at(self, coin_id: str, timestamp: str, vs_currency: Optional[str] = None) -> PriceAt:
        """The price of ``coin_id`` at ``timestamp`` (RFC 3339; an offset is normalized to UTC,
        no zone is UTC, a date alone is 00:00:00Z), in ``vs_currency`` (None: the engine's).

        The owner's manual point of that UTC day wins; else the latest stored CoinGecko point
        from the day's 00:00 to the time; else the first after it that day; else the snapshot's
        price when its ``last_updated`` is within an hour; else one range request for the day.

        Returns ``{"coin_id", "vs_currency", "timestamp", "price": Decimal, "at": t_ms,
        "source": "manual" | "coingecko" | "snapshot"}``. May block on the network.

        Raises:
            InvalidArgument: a bad coin id (a ``/`` in it included), a time outside 1970…9999, a
                currency CoinGecko does not price in (``details["reason"] ==
                "unknown_currency"``); ``details["field"]`` names it; nothing is sent.
            NoData: no price, ``details["reason"]`` ``"history_limit"`` (the public and demo
                plans reach back 365 days), ``"unknown_coin"`` or ``"no_point"``.
            NetworkError, HTTPError, RateLimited, Unauthorized: the request failed.
            StoreError: the database failed.
        """
        query = _ffi.encode_json(_ffi.options(coin_id=coin_id, timestamp=timestamp, vs_currency=vs_currency), "query")
        with self._borrow() as pointer:
            answer: PriceAt = _ffi.call_exact_json(_ffi.lib.cf_engine_price_at, pointer, query)
        return answer

    def set_price(
        self,
        coin_id: str,
        price: Optional[Amount],
        timestamp: Optional[str] = None,
        vs_currency: Optional[str] = None,
    ) -> None:
        """Sets (or with ``price=None`` removes) one of the owner's manual prices.

        With ``timestamp`` it is a historical point, taken by :meth:`price_at` for its whole UTC
        day; without it, the coin's current price in ``vs_currency`` (None: the engine's), which
        values a holding in :meth:`portfolio`, :meth:`statistics` and :meth:`pnl`
        (``price_source == "manual"``) while the snapshot has no price for the coin. Pass a
        ``str`` or :class:`decimal.Decimal` for exactness. Never blocks on the network.

        Raises:
            InvalidArgument: a bad coin id, time, currency or price (negative, not a number, more
                than 18 fraction digits); ``details["field"]`` names it; nothing is written.
            StoreError: the database failed.
        """
        payload = {"coin_id": coin_id, "price": decimal_payload(price, "price")}
        payload.update(_ffi.options(timestamp=timestamp, vs_currency=vs_currency))
        encoded = _ffi.encode_json(payload, "price")
        with self._borrow() as pointer:
            _ffi.call(_ffi.lib.cf_engine_set_price, pointer, encoded)

    def fill_prices(self, portfolio: Optional[str] = None, max_requests: Optional[int] = None) -> PriceFill:
        """Fills the owner's pending prices (rows stored without a price, trades without a value,
        prices given in another currency not converted yet) in ``portfolio`` (None: every one).

        Each row takes its coin's price at its time (manual point of the day, stored points, the
        snapshot within an hour); what is missing is asked of CoinGecko in at most one range
        request per coin, currency and 365 days of the rows' times, at most ``max_requests``
        (None: 20; 0…1000) of them. Progress reports phase ``"prices"``. A 429 stops the requests
        and lists the rows left as ``"rate_limited"``; a fill before the wait ends sends nothing.

        Returns ``{"filled": n, "requests": n, "missing": [{"transaction_id", "coin_id",
        "timestamp", "reason"}, …]}``, reasons ``"history_limit"``, ``"unknown_coin"``,
        ``"no_point"``, ``"max_requests"`` or ``"rate_limited"``. May block on the network.

        Raises:
            InvalidArgument: a bad portfolio name or max_requests; nothing is written.
            NotFound: a portfolio other than "main" that does not exist.
            NetworkError, HTTPError, Unauthorized, DecodeError: a request failed (rows filled
                before it stay filled).
            StoreError: the database failed.
        """
        encoded = _ffi.encode_json(_ffi.options(portfolio=portfolio, max_requests=max_requests), "options")
        with self._borrow() as pointer:
            answer: PriceFill = _ffi.call_json(_ffi.lib.cf_engine_fill_prices, pointer, encoded)
        return answer
