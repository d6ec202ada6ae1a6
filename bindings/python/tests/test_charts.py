"""SPEC §11 through the ABI: market charts, simple prices, the portfolio's week, SVG charts.

Every SVG is parsed by a real XML parser and rendered to PNG by rsvg-convert through
Tests/tools/svg_check.py (the checker the Swift and C suites use too); the tests then look for
pixels of the line colour where the line should be.
"""

from __future__ import annotations

import importlib.util
import json
import threading
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any, Dict

import pytest

import coinfolio
from coinfolio import InvalidArgument, NoData, NotFound, Unauthorized

from conftest import REPO, SHARED_FIXTURES, LoopbackServer

GREEN = "#16c784"
RED = "#ea3943"

_spec = importlib.util.spec_from_file_location("svg_check", REPO / "Tests" / "tools" / "svg_check.py")
assert _spec is not None and _spec.loader is not None
svg_check: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(svg_check)

RISING = {
    "vs_currency": "usd",
    "points": [[1734000000000, 100000], [1734003600000, 101000.5], [1734007200000, None],
               [1734010800000, 99500.25], [1734014400000, 102000], [1734018000000, 103500.75]],
}


def render(svg: str, tmp_path: Path) -> Dict[str, Any]:
    ElementTree.fromstring(svg.encode("utf-8"))
    path = tmp_path / "chart.svg"
    path.write_text(svg, encoding="utf-8")
    report: Dict[str, Any] = svg_check.check(path)
    return report


def columns(report: Dict[str, Any], colour: str) -> Dict[int, Any]:
    return {x: (low, high) for x, low, high in report["colours"][colour]["columns"]}


def engine(server: LoopbackServer, **extra: Any) -> coinfolio.Engine:
    return coinfolio.Engine(api={"base_url": server.base_url, "timeout_ms": 5000, "max_retries": 0}, **extra)


# --- Decoding and client -------------------------------------------------------------------------


def test_null_points_stay_gaps_and_empty_series_are_valid() -> None:
    chart = coinfolio.decode_market_chart(
        '{"prices":[[1000,1.5],[2000,null],[3000,"2.25"]],"market_caps":[[1000,null]],"total_volumes":[]}')
    assert chart["prices"] == [[1000, 1.5], [2000, None], [3000, 2.25]]
    assert chart["market_caps"] == [[1000, None]]
    assert chart["total_volumes"] == []
    assert coinfolio.decode_market_chart('{"prices":[],"market_caps":[],"total_volumes":[]}')["prices"] == []


def test_recorded_charts_decode() -> None:
    folder = SHARED_FIXTURES / "market-chart"
    if not folder.is_dir():
        pytest.skip(f"recorded CoinGecko corpus not found at {folder}")
    for path in sorted(folder.iterdir()):
        raw = json.loads(path.read_text(encoding="utf-8"))
        chart = coinfolio.decode_market_chart(path.read_bytes())
        assert chart["prices"] == raw["prices"], path.name  # every number bit-equal to the raw JSON
        assert chart["market_caps"] == raw["market_caps"], path.name
        assert chart["total_volumes"] == raw["total_volumes"], path.name
        assert chart["warnings"] == [], path.name


def test_client_market_chart_query_and_the_plan_limit(server: LoopbackServer) -> None:
    with coinfolio.Client(base_url=server.base_url, timeout_ms=5000, max_retries=0) as client:
        chart = client.market_chart("bitcoin", days=90, vs_currency="eur", interval="daily")
        assert chart["prices"][2] == [1734007200000, None]
        assert chart["market_caps"][1] == [1734003600000, None]
        assert server.requests_to("/coins/bitcoin/market_chart")[0]["query"] == {
            "vs_currency": "eur", "days": "90", "interval": "daily"}
        with pytest.raises(Unauthorized) as caught:
            client.market_chart("bitcoin", days=400)
        assert caught.value.details["error_code"] == 10012
        assert "365 days" in caught.value.message


def test_client_simple_price_splits_and_reads_empty_objects(server: LoopbackServer) -> None:
    ids = ["bitcoin", "tether"] + [f"unknown-{i}" for i in range(300)] + ["ethereum"]
    with coinfolio.Client(base_url=server.base_url, timeout_ms=5000, max_retries=0) as client:
        prices = client.simple_price(ids)["prices"]
    assert len(prices) == 303
    assert prices["bitcoin"] == {"price": 58000.5, "change_24h": 3.25, "last_updated_at": 1734602400}
    assert prices["ethereum"] == {"price": 3900.25, "change_24h": None, "last_updated_at": 1734602460}
    assert prices["tether"] == {"price": None, "change_24h": None, "last_updated_at": None}
    calls = server.requests_to("/simple/price")
    assert [len(c["query"]["ids"].split(",")) for c in calls] == [250, 53]
    with pytest.raises(InvalidArgument):
        coinfolio.Client(base_url=server.base_url).simple_price(["bitcoin,ethereum"])


# --- Engine --------------------------------------------------------------------------------------


def test_chart_summary(server: LoopbackServer) -> None:
    with engine(server) as e:
        chart = e.chart("bitcoin")
    assert chart["days"] == 7 and chart["clamped"] is False and chart["interval"] is None
    assert chart["points"][2] == [1734007200000, None]
    assert chart["summary"] == {
        "first": 100000, "last": 103500.75, "min": 99500.25, "max": 103500.75,
        "min_at": 1734010800000, "max_at": 1734018000000, "change": 3500.75, "percentage_change": 3.50075}


def test_empty_series_has_a_null_summary(server: LoopbackServer) -> None:
    with engine(server) as e:
        chart = e.chart("boringdao-[old]")
    assert chart["points"] == []
    assert set(chart["summary"].values()) == {None}


def test_days_beyond_the_plan_are_clamped_and_max_shares_365(server: LoopbackServer) -> None:
    with engine(server) as e:
        chart = e.chart("bitcoin", days=400)
        assert chart["days"] == 365 and chart["clamped"] is True
        assert e.chart("bitcoin", days="max")["clamped"] is True
        assert e.metrics()["chart_cache_hits"] == 1
        assert e.metrics()["http_requests"]["market_chart"] == 1
    assert server.requests_to("/coins/bitcoin/market_chart")[0]["query"]["days"] == "365"


def test_concurrent_asks_for_one_chart_share_one_request(server: LoopbackServer) -> None:
    server.fault(path="/api/v3/coins/bitcoin/market_chart", delay_ms=300)
    with engine(server) as e:
        errors = []

        def ask() -> None:
            try:
                e.chart("bitcoin")
            except coinfolio.CoinfolioError as error:  # pragma: no cover - reported below
                errors.append(error)

        threads = [threading.Thread(target=ask) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    assert len(server.requests_to("/coins/bitcoin/market_chart")) == 1


def test_chart_errors(server: LoopbackServer) -> None:
    with engine(server) as e:
        with pytest.raises(NotFound):
            e.chart("no-such-coin")
        with pytest.raises(InvalidArgument):
            e.chart("bitcoin", days=0)
        with pytest.raises(InvalidArgument):
            e.chart("bitcoin", interval="hourly")


def test_portfolio_history_aligns_sparklines_at_their_end(server: LoopbackServer, fixture_text: Any) -> None:
    with engine(server) as e:
        e.load(fixture_text("markets.json"))
        e.set_holding("bitcoin", 0.5)
        e.set_holding("tether", 100)
        history = e.portfolio_history()
    points = history["points"]
    assert len(points) == 170
    assert points[-1][0] == 1734605095946
    assert points[-1][1] == pytest.approx(28600.0815, abs=1e-9)
    assert points[-1][2] is False
    assert points[0] == [1733996695946, pytest.approx(28397.96405, abs=1e-9), True]
    assert points[145][2] is True and points[146][2] is False
    assert history["summary"]["min"] == pytest.approx(27819.0772, abs=1e-9)
    assert server.log() == []


def test_refresh_prices_is_one_request(server: LoopbackServer, fixture_text: Any) -> None:
    with engine(server) as e:
        with pytest.raises(NoData):
            e.refresh_prices()
        e.load(fixture_text("markets.json"))
        for coin_id in ("bitcoin", "ethereum", "tether"):
            e.set_holding(coin_id, 1)
        assert e.refresh_prices()["coins"] == 2
        coins = {c["id"]: c for c in e.coins()["coins"]}
    assert [c["path"] for c in server.log()] == ["/api/v3/simple/price"]
    assert coins["bitcoin"]["current_price"] == 58000.5
    assert coins["bitcoin"]["price_change_percentage_24h"] == 3.25
    assert coins["bitcoin"]["last_updated"] == "2024-12-19T10:00:00Z"
    assert coins["ethereum"]["price_change_percentage_24h"] is None
    assert coins["tether"]["current_price"] == 1.0002


def test_refresh_asks_for_the_configured_windows(server: LoopbackServer) -> None:
    with engine(server, price_change_percentage=["1h", "24h", "7d"]) as e:
        e.refresh()
    assert server.requests_to("/coins/markets")[0]["query"]["price_change_percentage"] == "1h,24h,7d"
    with pytest.raises(InvalidArgument):
        coinfolio.Engine(price_change_percentage=["2h"])


# --- SVG -----------------------------------------------------------------------------------------


def test_rising_chart_is_green_with_labels(tmp_path: Path) -> None:
    report = render(coinfolio.chart_svg(RISING, title="Bitcoin"), tmp_path)
    assert report["texts"] == ["Bitcoin", "$104,000.00", "$103,000.00", "$102,000.00", "$101,000.00", "$100,000.00",
                               "$99,000.00", "2024-12-12 10:40", "12:00", "13:00", "14:00", "2024-12-12 15:40"]
    green = columns(report, GREEN)
    assert len(green) > 100 and report["colours"][RED]["count"] == 0
    assert green[max(green)][0] < green[min(green)][0]  # ends higher than it starts


def test_gaps_break_the_line(tmp_path: Path) -> None:
    green = columns(render(coinfolio.chart_svg(RISING), tmp_path), GREEN)
    left, right = min(green), max(green)
    span = right - left
    assert all(x not in green for x in range(left + int(span * 0.27), left + int(span * 0.53)))
    assert left + int(span * 0.1) in green and left + int(span * 0.7) in green


def test_falling_chart_is_red_in_the_dark_theme(tmp_path: Path) -> None:
    chart = {"vs_currency": "eur", "points": [[1734000000000, 4000], [1734259200000, 3800.5]]}
    svg = coinfolio.chart_svg(chart, width=300, height=120, theme="dark")
    report = render(svg, tmp_path)
    assert report["texts"] == ["€4,000.00", "€3,950.00", "€3,900.00", "€3,850.00", "€3,800.00", "2024-12-12", "Dec 14",
                               "2024-12-15"]
    assert report["colours"][RED]["count"] > 50 and report["colours"][GREEN]["count"] == 0


def test_empty_series_says_no_data(tmp_path: Path) -> None:
    report = render(coinfolio.chart_svg({"points": []}), tmp_path)
    assert report["texts"] == ["No data"]
    assert report["colours"][GREEN]["count"] == 0 and report["colours"][RED]["count"] == 0


def test_titles_are_escaped_text(tmp_path: Path) -> None:
    svg = coinfolio.chart_svg(RISING, title='<script>alert("x")</script> & co')
    assert "<script>" not in svg
    assert render(svg, tmp_path)["texts"][0] == '<script>alert("x")</script> & co'


def test_svg_options_are_checked() -> None:
    for options in ({"width": 63}, {"height": 4097}, {"theme": "blue"}):
        with pytest.raises(InvalidArgument):
            coinfolio.chart_svg(RISING, **options)
    with pytest.raises(InvalidArgument):
        coinfolio.chart_svg({"coins": []})
    with pytest.raises(InvalidArgument):
        coinfolio.chart_svg("{not json")


def test_portfolio_week_svg_renders(server: LoopbackServer, fixture_text: Any, tmp_path: Path) -> None:
    with engine(server) as e:
        e.load(fixture_text("markets.json"))
        e.set_holding("bitcoin", 0.5)
        svg = coinfolio.chart_svg(e.portfolio_history(), title="Portfolio")
    report = render(svg, tmp_path)
    assert report["texts"][-7:] == ["2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19"]
    assert report["colours"][GREEN]["count"] > 100


def test_a_null_market_cap_inside_a_2000_point_series_stays_a_gap() -> None:
    points = [[1700000000000 + i * 300000, None if i == 1234 else 1e9 + i] for i in range(2000)]
    chart = coinfolio.decode_market_chart(json.dumps({"prices": points, "market_caps": points, "total_volumes": []}))
    assert len(chart["market_caps"]) == 2000
    assert chart["market_caps"][1234] == [1700000000000 + 1234 * 300000, None]
    assert sum(1 for _, v in chart["market_caps"] if v is None) == 1


def test_chart_downloads_report_progress(server: LoopbackServer) -> None:
    reports = []
    with engine(server) as e:
        e.set_progress(reports.append)
        e.chart("bitcoin")
        e.chart("bitcoin")  # cached: no request, no report
    assert reports == [{"phase": "chart", "done": 0, "total": 1}, {"phase": "chart", "done": 1, "total": 1}]


def test_an_id_with_a_comma_is_refused_as_a_holding(db_path: Path) -> None:
    with coinfolio.Store(str(db_path)) as store:
        with pytest.raises(InvalidArgument) as caught:
            store.set_holding("bitcoin,ethereum", 1)
        assert caught.value.details["reason"] == "comma"
        assert store.holdings() == []
