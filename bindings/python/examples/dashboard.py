#!/usr/bin/env python3
"""A local Coinfolio dashboard: three web pages over the Python binding, served on 127.0.0.1.

    python3 bindings/python/examples/dashboard.py --port 8000 [--db PATH] [--base-url URL]

Pages: ``/`` (the market statistics and the top coins with their 7-day sparklines),
``/portfolio`` (holdings, values, P&L when the library has a ledger, the 7-day history when it
renders charts), ``/performance?range=7d|30d|90d|1y|ytd|max`` (the portfolio's value chart from
stored prices, its flows, gain, ROI, time- and money-weighted returns, and the days without a
stored price; when the library has returns) and ``/coin/<id>`` (overview and additional
statistics, the price chart when the library renders charts, description and links).

It starts with one refresh (unless ``--offline``) and then only reads: no request changes
anything, and every method but GET and HEAD is refused. Every string that came from CoinGecko or
the user is HTML-escaped, links keep only http(s) URLs, pages carry a Content-Security-Policy that
allows no script at all, and no coin image or other remote resource is loaded. Python standard
library only (http.server); no JavaScript.

``--port 0`` picks a free port. The first line on stdout is ``Serving on http://127.0.0.1:<port>/``.
"""

from __future__ import annotations

import argparse
import html
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, List, Optional, Sequence, Tuple

import coinfolio
from coinfolio.answers import Statistic

GREEN = "#16a34a"
RED = "#dc2626"
TOP_COINS = 25
#: The ranges /performance offers, the first the default.
RANGES = ("1y", "7d", "30d", "90d", "ytd", "max")

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #111827; background: #f9fafb; }
nav { background: #111827; padding: .6em 1.2em; }
nav a { color: #f9fafb; margin-right: 1.4em; text-decoration: none; font-weight: 600; }
main { max-width: 1100px; margin: 0 auto; padding: 1em 1.2em 3em; }
h1 { font-size: 1.5em; margin: .6em 0; }
h2 { font-size: 1.15em; margin: 1.4em 0 .5em; }
.stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: .8em; }
.stat { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: .7em 1em; }
.stat .title { color: #6b7280; font-size: .9em; }
.stat .value { font-size: 1.35em; font-weight: 600; }
.up { color: #15803d; } .down { color: #b91c1c; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { padding: .4em .6em; border-bottom: 1px solid #e5e7eb; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: #6b7280; }
.chart svg { max-width: 100%; height: auto; background: #fff; }
.description { white-space: pre-line; max-width: 70em; }
"""

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"


def esc(value: Any) -> str:
    """Text for HTML content or a quoted attribute."""
    return html.escape("" if value is None else str(value), quote=True)


def change_html(value: Optional[float]) -> str:
    """A signed percentage in green or red; empty when unknown."""
    if value is None:
        return ""
    text = coinfolio.format_percent(value)
    if value > 0:
        return f'<span class="up">+{esc(text)}</span>'
    if text.startswith("-"):
        return f'<span class="down">{esc(text)}</span>'
    return esc(text)


def safe_url(url: Any) -> Optional[str]:
    """The URL when it is http(s), else None (no javascript:, data: …)."""
    if not isinstance(url, str):
        return None
    parsed = urllib.parse.urlsplit(url.strip())
    return url.strip() if parsed.scheme in ("http", "https") and parsed.netloc else None


def sparkline_svg(prices: Optional[Sequence[Optional[float]]], width: int = 120, height: int = 32) -> str:
    """A small line of the 7-day prices: green when the last ≥ the first, red otherwise."""
    points = [p for p in (prices or []) if isinstance(p, (int, float)) and p == p and abs(p) != float("inf")]
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    step = (width - 2) / (len(points) - 1)
    coordinates = " ".join(
        f"{1 + i * step:.1f},{1 + (height - 2) * (1 - (p - low) / span):.1f}" for i, p in enumerate(points)
    )
    colour = GREEN if points[-1] >= points[0] else RED
    return (
        f'<svg class="sparkline" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="7-day prices">'
        f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coordinates}"/></svg>'
    )


def inline_svg(document: str) -> str:
    """A standalone SVG document (from the library's renderer) as an element inside the page."""
    start = document.find("<svg")
    return document[start:] if start >= 0 else ""


class Dashboard:
    """The pages, computed from one engine. Reads only."""

    def __init__(self, engine: coinfolio.Engine) -> None:
        self.engine = engine
        # Ledger and charts arrive in later library versions: use them when they are there.
        self.pnl: Optional[Callable[..., Any]] = getattr(engine, "pnl", None)
        self.chart: Optional[Callable[..., Any]] = getattr(engine, "chart", None)
        self.history: Optional[Callable[..., Any]] = getattr(engine, "portfolio_history", None)
        self.performance_of: Optional[Callable[..., Any]] = getattr(engine, "performance", None)
        self.chart_svg: Optional[Callable[..., Any]] = getattr(coinfolio, "chart_svg", None) or getattr(
            engine, "chart_svg", None
        )

    # ------------------------------------------------------------------ layout

    def page(self, title: str, body: str, as_of: Optional[str] = None, stale: bool = False) -> str:
        footer = ""
        if as_of:
            footer = f'<p class="muted">{"Stale data as of" if stale else "Data as of"} {esc(as_of)} · CoinGecko</p>'
        return (
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width\"><title>{esc(title)} · Coinfolio</title>"
            f"<style>{STYLE}</style></head><body>"
            '<nav><a href="/">Coinfolio</a><a href="/">Market</a><a href="/portfolio">Portfolio</a>'
            + ('<a href="/performance">Performance</a>' if self.performance_of is not None else "")
            + "</nav>"
            f"<main>{body}{footer}</main></body></html>\n"
        )

    @staticmethod
    def statistics_html(statistics: Sequence[Statistic]) -> str:
        cards = "".join(
            '<div class="stat">'
            f'<div class="title">{esc(s.get("title"))}</div>'
            f'<div class="value">{esc(s.get("value"))}</div>'
            f'<div class="change">{change_html(s.get("percentage_change"))}</div></div>'
            for s in statistics
        )
        return f'<section class="stats">{cards}</section>'

    def svg_of(self, data: Any, title: str) -> str:
        """The library's SVG of a chart or history, inlined; empty when it cannot render."""
        if self.chart_svg is None:
            return ""
        options = {"width": 900, "height": 320, "title": title, "theme": "light"}
        try:
            try:
                document = self.chart_svg(data, **options)
            except TypeError:
                document = self.chart_svg(data, options)
        except coinfolio.CoinfolioError as error:
            return f'<p class="muted">No chart: {esc(error.message)}</p>'
        return f'<div class="chart">{inline_svg(str(document))}</div>'

    # ------------------------------------------------------------------ pages

    def home(self) -> Tuple[int, str]:
        try:
            statistics = self.engine.statistics()
            listing = self.engine.coins(limit=TOP_COINS, sparkline=True)
        except coinfolio.NoData:
            return 200, self.page("Market", "<h1>Market</h1><p>No market data yet: start the dashboard with "
                                  "network access (without --offline) to download it.</p>")
        rows = []
        for coin in listing["coins"]:
            price = coin.get("current_price")
            cap = coin.get("market_cap")
            sparkline = coin.get("sparkline_in_7d")
            rows.append(
                "<tr>"
                f'<td class="num">{esc(coin.get("market_cap_rank") or "-")}</td>'
                f'<td><a href="/coin/{esc(urllib.parse.quote(coin["id"], safe=""))}">{esc(coin.get("name"))}</a> '
                f'<span class="muted">{esc(str(coin.get("symbol") or "").upper())}</span></td>'
                f'<td class="num">{esc(coinfolio.format_price(price)) if price is not None else "n/a"}</td>'
                f'<td class="num">{change_html(coin.get("price_change_percentage_24h"))}</td>'
                f'<td class="num">{esc("$" + coinfolio.format_abbreviated(cap)) if cap is not None else "n/a"}</td>'
                f"<td>{sparkline_svg(sparkline['price'] if sparkline else None)}</td>"
                "</tr>"
            )
        body = (
            "<h1>Market</h1>"
            + self.statistics_html(statistics)
            + f'<h2>Top coins</h2><table><thead><tr><th class="num">#</th><th>Coin</th><th class="num">Price</th>'
            '<th class="num">24h</th><th class="num">Market cap</th><th>7 days</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        return 200, self.page("Market", body, listing.get("as_of"), bool(listing.get("stale")))

    def portfolio(self) -> Tuple[int, str]:
        portfolio = self.engine.portfolio(sparkline=False)
        coins = portfolio["coins"]

        def money(value: Optional[float]) -> str:  # total_value is None when no holding has a price
            return "n/a" if value is None else coinfolio.format_value(value)
        if not coins:
            body = "<h1>Portfolio</h1><p>No holdings yet: <code>coinfolio-cli set bitcoin 0.5</code> adds some.</p>"
            return 200, self.page("Portfolio", body, portfolio.get("as_of"), bool(portfolio.get("stale")))
        rows = []
        for coin in coins:
            value = coin.get("current_holdings_value")
            rows.append(
                "<tr>"
                f'<td><a href="/coin/{esc(urllib.parse.quote(coin["id"], safe=""))}">{esc(coin.get("name"))}</a> '
                f'<span class="muted">{esc(str(coin.get("symbol") or "").upper())}</span></td>'
                f'<td class="num">{esc(coin.get("current_holdings"))}</td>'
                f'<td class="num">{esc(coinfolio.format_value(value)) if value is not None else "no price"}</td>'
                f'<td class="num">{change_html(coin.get("price_change_percentage_24h"))}</td>'
                "</tr>"
            )
        body = (
            "<h1>Portfolio</h1>"
            '<section class="stats"><div class="stat"><div class="title">Total Value</div>'
            f'<div class="value">{esc(money(portfolio["total_value"]))}</div></div></section>'
            '<h2>Holdings</h2><table><thead><tr><th>Coin</th><th class="num">Amount</th>'
            '<th class="num">Value</th><th class="num">24h</th></tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>"
        )
        body += self.pnl_html()
        if self.history is not None and self.chart_svg is not None:
            try:
                body += "<h2>Last 7 days</h2>" + self.svg_of(self.history(), "Portfolio value, 7 days")
            except coinfolio.CoinfolioError as error:
                body += f'<p class="muted">No history: {esc(error.message)}</p>'
        return 200, self.page("Portfolio", body, portfolio.get("as_of"), bool(portfolio.get("stale")))

    def pnl_html(self) -> str:
        """Profit and loss per coin, when the library keeps a ledger."""
        if self.pnl is None:
            return ""
        try:
            pnl = self.pnl()
        except coinfolio.CoinfolioError as error:
            return f'<p class="muted">No P&amp;L: {esc(error.message)}</p>'

        def money(value: Any) -> str:
            return esc(coinfolio.format_value(value)) if isinstance(value, (int, float)) else "n/a"

        def signed(value: Any) -> str:
            if not isinstance(value, (int, float)):
                return "n/a"
            css = "up" if value > 0 else "down" if value < 0 else ""
            return f'<span class="{css}">{money(value)}</span>'

        rows = "".join(
            "<tr>"
            f'<td>{esc(coin.get("coin_id"))}</td><td class="num">{money(coin.get("cost_basis"))}</td>'
            f'<td class="num">{money(coin.get("current_value"))}</td>'
            f'<td class="num">{signed(coin.get("unrealized_pnl"))}</td>'
            f'<td class="num">{signed(coin.get("realized_pnl"))}</td></tr>'
            for coin in pnl.get("coins", [])
        )
        totals = pnl.get("totals") or {}
        return (
            '<h2>Profit and loss</h2><table><thead><tr><th>Coin</th><th class="num">Cost basis</th>'
            '<th class="num">Value</th><th class="num">Unrealized P&amp;L</th><th class="num">Realized P&amp;L</th>'
            f"</tr></thead><tbody>{rows}</tbody><tfoot><tr><th>Total</th>"
            f'<td class="num">{money(totals.get("cost_basis"))}</td><td class="num">{money(totals.get("current_value"))}</td>'
            f'<td class="num">{signed(totals.get("unrealized_pnl"))}</td>'
            f'<td class="num">{signed(totals.get("realized_pnl"))}</td></tr></tfoot></table>'
        )

    def coin(self, coin_id: str) -> Tuple[int, str]:
        try:
            screen = self.engine.coin_detail(coin_id)
        except (coinfolio.NotFound, coinfolio.InvalidArgument) as error:
            return 404, self.page("Not found", f"<h1>Not found</h1><p>{esc(error.message)}</p>")
        except coinfolio.CoinfolioError as error:
            return 502, self.page("Unavailable", f"<h1>CoinGecko did not answer</h1><p>{esc(error.message)}</p>")
        detail = screen["detail"]
        name = f'{detail.get("name")} ({str(detail.get("symbol") or "").upper()})'
        body = f"<h1>{esc(name)}</h1>"
        if self.chart is not None:
            try:
                body += self.svg_of(self.chart(coin_id), f"{detail.get('name')}, 7 days")
            except coinfolio.CoinfolioError as error:
                body += f'<p class="muted">No chart: {esc(error.message)}</p>'
        body += "<h2>Overview</h2>" + self.statistics_html(screen["overview"])
        body += "<h2>Additional Details</h2>" + self.statistics_html(screen["additional"])
        if detail.get("description"):
            body += f'<h2>Description</h2><p class="description">{esc(detail["description"])}</p>'
        links = []
        for label, url in (("Website", detail.get("homepage")), ("Reddit", detail.get("subreddit_url"))):
            safe = safe_url(url)
            if safe:
                links.append(f'<li>{label}: <a href="{esc(safe)}" rel="noopener noreferrer nofollow">{esc(safe)}</a></li>')
        if links:
            body += f"<h2>Links</h2><ul>{''.join(links)}</ul>"
        return 200, self.page(str(detail.get("name") or coin_id), body)

    def performance(self, query: str) -> Tuple[int, str]:
        """The portfolio's value over a range from stored prices, and its returns."""
        chosen = urllib.parse.parse_qs(query).get("range", [RANGES[0]])[0]
        if self.performance_of is None or chosen not in RANGES:
            return 404, self.page("Not found", "<h1>Not found</h1><p>Try the <a href=\"/performance\">performance</a>.</p>")
        try:
            report = self.performance_of(range=chosen)
        except coinfolio.CoinfolioError as error:
            return 200, self.page("Performance", f'<h1>Performance</h1><p class="muted">No report: {esc(error.message)}</p>')
        vs = str(report["vs_currency"])

        def money(value: Any) -> str:
            return "n/a" if value is None else esc(coinfolio.format_value(float(value), vs))

        def signed(value: Any) -> str:
            if value is None:
                return "n/a"
            css = "up" if value > 0 else "down" if value < 0 else ""
            return f'<span class="{css}">{"+" if value > 0 else ""}{money(value)}</span>'

        def percent(value: Optional[float]) -> str:
            return "n/a" if value is None else change_html(value)

        links = " · ".join(
            f"<strong>{esc(name)}</strong>" if name == chosen else f'<a href="/performance?range={esc(name)}">{esc(name)}</a>'
            for name in RANGES
        )
        figures = [
            ("Start Value", money(report["start_value"])), ("End Value", money(report["end_value"])),
            ("Net Flows", signed(report["net_flows"])), ("Gain", signed(report["gain"])),
            ("ROI", percent(report["roi"])), ("Time-Weighted Return", percent(report["twr"])),
            ("Money-Weighted Return (a year)", percent(report["mwr"])),
        ]
        benchmark = report.get("benchmark")
        if benchmark:
            figures.append((f'{benchmark["coin_id"]} (benchmark)', percent(benchmark["change"])))
        figures.append(("Coverage", esc(coinfolio.format_percent(report["coverage"] * 100))))
        cards = "".join(
            f'<div class="stat"><div class="title">{esc(title)}</div><div class="value">{value}</div></div>'
            for title, value in figures
        )
        body = (
            "<h1>Performance</h1>"
            f'<p class="muted">{esc(report["from"])} → {esc(report["to"])} · {esc(vs)} · {links}</p>'
            f'<section class="stats">{cards}</section>'
        )
        points = [[point[0], None if point[1] is None else float(point[1])] for point in report["points"]]
        body += "<h2>Value</h2>" + self.svg_of({"vs_currency": vs, "points": points}, f"Portfolio value, {chosen}")
        missing = report["missing"]
        if missing:
            shown = ", ".join(f'{esc(day["date"])} ({esc(" ".join(day["coin_ids"]))})' for day in missing[:5])
            body += (
                f'<p class="muted">No stored price on {len(missing)} day{"s" if len(missing) != 1 else ""}: {shown}'
                f'{", …" if len(missing) > 5 else ""}. Those values are left out, never guessed.</p>'
            )
        return 200, self.page("Performance", body)

    def route(self, path: str, query: str = "") -> Tuple[int, str]:
        if path == "/":
            return self.home()
        if path == "/portfolio":
            return self.portfolio()
        if path == "/performance":
            return self.performance(query)
        if path.startswith("/coin/") and len(path) > len("/coin/"):
            return self.coin(urllib.parse.unquote(path[len("/coin/"):]))
        return 404, self.page("Not found", "<h1>Not found</h1><p>Try the <a href=\"/\">market</a>.</p>")


class Handler(BaseHTTPRequestHandler):
    dashboard: Dashboard
    server_version = "coinfolio-dashboard"

    def do_GET(self) -> None:
        self.answer(send_body=True)

    def do_HEAD(self) -> None:
        self.answer(send_body=False)

    def refuse(self) -> None:
        self.send_response(405)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = refuse  # read-only

    def __getattr__(self, name: str) -> Any:
        # Any other method (OPTIONS, TRACE, PROPFIND, …) is refused the same way, with 405 and
        # Allow, rather than http.server's 501 page.
        if name.startswith("do_"):
            return self.refuse
        raise AttributeError(name)

    def answer(self, send_body: bool) -> None:
        parts = urllib.parse.urlsplit(self.path)
        path = parts.path
        try:
            status, text = self.dashboard.route(path, parts.query)
        except Exception as error:  # a bug: say so, never show a traceback with data in it
            self.log_error("dashboard error on %s: %r", path, error)
            status, text = 500, "<!doctype html><title>Error</title><p>Internal error.</p>"
        data = text.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        if send_body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        sys.stderr.write("dashboard: " + (format % args) + "\n")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="A local Coinfolio dashboard on 127.0.0.1")
    parser.add_argument("--port", type=int, required=True, help="TCP port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--db", default=None, help="the Coinfolio database (default: in memory)")
    parser.add_argument("--base-url", default=None, help="CoinGecko API root (default: the public API)")
    parser.add_argument("--offline", action="store_true", help="no refresh at start: show the saved snapshot")
    args = parser.parse_args(argv)

    try:  # the port first: a port in use is said at once, before any refresh
        server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    except OSError as error:
        print(f"dashboard.py: cannot serve on 127.0.0.1:{args.port}: {error.strerror}", file=sys.stderr)
        return 1
    api = {"base_url": args.base_url} if args.base_url else None
    try:
        engine = coinfolio.Engine(database=args.db or ":memory:", api=api)
    except coinfolio.CoinfolioError as error:
        print(f"dashboard.py: {error.message}", file=sys.stderr)
        server.server_close()
        return 1
    if not args.offline:
        try:
            engine.refresh()
        except coinfolio.CoinfolioError as error:
            print(f"dashboard.py: refresh failed, showing saved data: {error.message}", file=sys.stderr)

    Handler.dashboard = Dashboard(engine)
    print(f"Serving on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
