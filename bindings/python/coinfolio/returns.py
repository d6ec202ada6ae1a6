"""Returns and taxes (SPEC §19): how a portfolio performed, and what its disposals realized.

The methods of :class:`coinfolio.Engine` for returns; see ``include/coinfolio.h`` ("Returns and
taxes") for every rule and status. Neither call sends a request: prices of the past come from
stored price points only, and a missing one shows in the answer (``coverage``, ``missing``).
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple, Union

from . import _ffi
from ._handle import Handle
from .answers import PerformanceAnswer, RealizedAnswer

__all__ = ["ReturnsMethods"]

#: A range: ``"24h"``, ``"7d"``, ``"30d"``, ``"90d"``, ``"1y"``, ``"ytd"``, ``"max"``, or
#: ``(from, to)`` RFC 3339 times (``to`` None: now).
Range = Union[str, Tuple[str, Optional[str]]]


def _portfolio(options: Dict[str, Any], portfolio: Optional[str], all_portfolios: bool) -> Dict[str, Any]:
    """``options`` with ``"portfolio"``: null for every portfolio, else the name (absent: main)."""
    if all_portfolios:
        options["portfolio"] = None
    elif portfolio is not None:
        options["portfolio"] = portfolio
    return options


class ReturnsMethods(Handle):
    """:class:`coinfolio.Engine`'s returns and taxes (a base class of it, not used alone)."""

    def performance(
        self,
        portfolio: Optional[str] = None,
        range: Optional[Range] = None,
        benchmark: Optional[str] = None,
        all_portfolios: bool = False,
    ) -> PerformanceAnswer:
        """How the portfolio's value moved over ``range`` (None: ``"max"``, from the first
        transaction's day), and how much of that was money put in or taken out.

        Values at ``from``, each UTC day's 00:00 and ``to``, from the price points
        :meth:`fill_prices`, :meth:`price_at` and :meth:`set_price` store, by the ``price_at``
        rule (the owner's manual point of the day first; a range ending now takes its last value
        from the snapshot, else the manual current price); flows: a buy brings in amount × price
        + fee, a sell takes out its proceeds net of fees, a transfer (other than a move between
        covered portfolios) its market value; income and fees paid in coins are no flows.
        ``all_portfolios``: every portfolio of the owner together (one currency).

        Returns ``{"portfolio", "vs_currency", "from", "to", "start_value", "end_value",
        "net_flows", "gain", "roi", "twr", "mwr", "benchmark": {"coin_id", "change"} | None,
        "coverage", "points": [[t_ms, value, net_flows], ...], "missing": [{"date",
        "coin_ids"}, ...]}``: money as :class:`decimal.Decimal`, returns in percent (floats),
        None where unknown (a missing price, a pending one), never a guess. Never blocks on the
        network.

        Raises:
            InvalidArgument: a bad range or benchmark (``details["field"]``), or portfolios of
                different currencies with ``all_portfolios`` (``details["reason"] ==
                "currency"``).
            NotFound: an unknown portfolio.
            StoreError: the database failed.
        """
        options: Dict[str, Any] = _ffi.options(benchmark=benchmark)
        if isinstance(range, tuple):
            start, end = range
            options["range"] = _ffi.options(to=end, **{"from": start})
        elif range is not None:
            options["range"] = range
        encoded = _ffi.encode_json(_portfolio(options, portfolio, all_portfolios), "options")
        with self._borrow() as pointer:
            answer: PerformanceAnswer = _ffi.call_exact_json(_ffi.lib.cf_engine_performance, pointer, encoded)
        # Exact parsing reads every number of a point as a Decimal; its time is a whole number.
        for point in answer["points"]:
            point[0] = int(point[0])  # type: ignore[arg-type]
        return answer

    def realized(
        self,
        portfolio: Optional[str] = None,
        method: Optional[str] = None,
        year: Optional[int] = None,
        from_time: Optional[str] = None,
        to_time: Optional[str] = None,
        long_term_after_years: Optional[int] = None,
        tax_free_after_years: Optional[int] = None,
        all_portfolios: bool = False,
    ) -> RealizedAnswer:
        """The realized lots of a period: one row per (disposal, lot) by ``method`` (``"fifo"``
        default, ``"lifo"``, ``"hifo"``, ``"lofo"``, ``"average"`` or ``"uk"``: UK share
        pooling), with holding days, term and tax-free status; their totals; the income of the
        period.

        ``year`` (UTC) or ``from_time``/``to_time`` (RFC 3339, to exclusive) bound the period
        (neither: every disposal). ``term`` is ``"long"`` when the disposal's UTC date is after
        the anniversary of ``long_term_after_years`` (default 1); with ``tax_free_after_years``
        a row past that anniversary is tax-free (the German one-year rule). N years after
        2020-02-29 is 2021-02-28.

        Returns ``{"portfolio", "vs_currency", "method", "rows": [{"portfolio", "coin_id",
        "amount", "acquired_at", "disposed_at", "proceeds", "cost", "gain", "holding_days",
        "term", "tax_free", "disposal_id"}, ...], "totals": {"proceeds", "cost", "gain",
        "short_term_gain", "long_term_gain", "taxable_gain", "coverage"}, "income":
        [{"portfolio", "coin_id", "income_type", "amount", "value", "timestamp",
        "transaction_id"}, ...], "income_total"}``: money as :class:`decimal.Decimal`; cost and
        gain None for units of unknown cost, never 0. Never blocks on the network.

        Raises:
            InvalidArgument: a bad option (``details["field"]``), or portfolios of different
                currencies with ``all_portfolios`` (``details["reason"] == "currency"``).
            NotFound: an unknown portfolio.
            StoreError: the database failed.
        """
        encoded = self._realized_options(
            portfolio, method, year, from_time, to_time, long_term_after_years, tax_free_after_years, all_portfolios, "json"
        )
        with self._borrow() as pointer:
            answer: RealizedAnswer = _ffi.call_exact_json(_ffi.lib.cf_engine_realized, pointer, encoded)
        return answer

    def realized_csv(
        self,
        portfolio: Optional[str] = None,
        method: Optional[str] = None,
        year: Optional[int] = None,
        from_time: Optional[str] = None,
        to_time: Optional[str] = None,
        long_term_after_years: Optional[int] = None,
        all_portfolios: bool = False,
    ) -> str:
        """:meth:`realized`'s rows as CSV (CRLF line ends) in Form 8949-like columns:
        ``description,acquired,disposed,proceeds,cost,gain,term`` — description ``"<amount>
        <coin_id>"``, UTC dates ``YYYY-MM-DD``, exact money, an unknown value an empty cell.
        Raises as :meth:`realized`."""
        encoded = self._realized_options(
            portfolio, method, year, from_time, to_time, long_term_after_years, None, all_portfolios, "csv"
        )
        with self._borrow() as pointer:
            return _ffi.call_text(_ffi.lib.cf_engine_realized, pointer, encoded)

    @staticmethod
    def _realized_options(
        portfolio: Optional[str],
        method: Optional[str],
        year: Optional[int],
        from_time: Optional[str],
        to_time: Optional[str],
        long_term_after_years: Optional[int],
        tax_free_after_years: Optional[int],
        all_portfolios: bool,
        format: str,
    ) -> bytes:
        options: Mapping[str, Any] = _ffi.options(
            method=method,
            year=year,
            to=to_time,
            long_term_after_years=long_term_after_years,
            tax_free_after_years=tax_free_after_years,
            format=format,
            **{"from": from_time},
        )
        return _ffi.encode_json(_portfolio(dict(options), portfolio, all_portfolios), "options")
