"""A small Coinfolio host in Python: hold some bitcoin, refresh, print the statistics and the
portfolio, and write the portfolio's week as an SVG chart.

    COINFOLIO_BASE_URL  CoinGecko API root (default: the public API)
    COINFOLIO_DB        database path (default: ":memory:")
    COINFOLIO_LIBRARY   path of libcoinfolio.so (default: the repository's build folder)
    COINFOLIO_CHART_SVG where the week's chart goes (default: portfolio-week.svg)
"""
from __future__ import annotations

import os
import sys

import coinfolio


def main() -> int:
    api = {"base_url": os.environ["COINFOLIO_BASE_URL"]} if os.environ.get("COINFOLIO_BASE_URL") else {}
    try:
        with coinfolio.Engine(database=os.environ.get("COINFOLIO_DB", ":memory:"), api=api) as engine:
            engine.set_holding("bitcoin", 0.5)
            engine.refresh()
            for statistic in engine.statistics():
                change = statistic["percentage_change"]
                suffix = "" if change is None else f" ({'+' if change > 0 else ''}{coinfolio.format_percent(change)})"
                print(f"{statistic['title']}: {statistic['value']}{suffix}")
            portfolio = engine.portfolio()
            for coin in portfolio["coins"]:
                value = coin["current_holdings_value"]
                shown = "no price" if value is None else coinfolio.format_value(value)
                print(f"  {coin['id']}: {coin['current_holdings']} = {shown}")
            total = portfolio["total_value"]  # None when no holding has a price
            print(f"Total: {'n/a' if total is None else coinfolio.format_value(total)}")
            history = engine.portfolio_history()
            path = os.environ.get("COINFOLIO_CHART_SVG", "portfolio-week.svg")
            with open(path, "w", encoding="utf-8") as file:
                file.write(coinfolio.chart_svg(history, width=800, height=400, title="Portfolio, 7 days"))
            change = history["summary"]["percentage_change"]
            shown = "n/a" if change is None else coinfolio.format_percent(change)
            print(f"Week: {path} ({len(history['points'])} hourly points, {shown})")
    except coinfolio.CoinfolioError as error:
        print(f"portfolio.py: {error.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
