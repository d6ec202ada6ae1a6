"""Issue 32 through the ABI: charts a person reads at a glance.

``chart_svg`` labels its value axis with round ticks (steps of 1, 2 or 5 × 10ⁿ, 3 to 6 of them,
covering the data) written like ``format_value``, its time axis with round UTC times, and draws
partial history points dashed and lighter with a note, the scale from the complete points. The
expected texts are worked by hand from those rules (the Swift and C suites hold the same values);
the texts are read from the SVG by Tests/tools/svg_check.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, List

import pytest

import coinfolio

from conftest import child_env
from test_charts import GREEN, RED, render

T0 = 1734000000000  # 2024-12-12T10:40:00Z
HOUR = 3600000
NOTE = "Dashed: {} of {} points miss a holding\u2019s price"


def texts(points: List[List[Any]], tmp_path: Path, vs_currency: str = "usd", **options: Any) -> List[str]:
    report = render(coinfolio.chart_svg({"vs_currency": vs_currency, "points": points}, **options), tmp_path)
    return list(report["texts"])


def value_labels(low: float, high: float, tmp_path: Path, vs_currency: str = "usd") -> List[str]:
    """The value labels of a two-point series: the texts before the first date."""
    labels = texts([[T0, low], [T0 + HOUR, high]], tmp_path, vs_currency)
    return labels[:next(i for i, text in enumerate(labels) if text.startswith("2024-"))]


@pytest.mark.parametrize("low, high, vs_currency, expected", [
    # 1e-7 gives 14 ticks, 2e-7 gives 8, 5e-7 gives 4; every tick shows the step's digits.
    (0.0000021, 0.0000034, "usd", ["$0.0000035", "$0.0000030", "$0.0000025", "$0.0000020"]),
    # A stablecoin: 0.01 gives 0.98 … 1.02; closer still, the third digit shows on every tick.
    (0.98, 1.02, "usd", ["$1.02", "$1.01", "$1.00", "$0.99", "$0.98"]),
    (0.9985, 1.0012, "usd", ["$1.002", "$1.001", "$1.000", "$0.999", "$0.998"]),
    # The issue's portfolio: 2000 gives 8 ticks, 5000 gives 5, written as values.
    (28368.19535, 40697.69215, "usd", ["$45,000.00", "$40,000.00", "$35,000.00", "$30,000.00", "$25,000.00"]),
    # A market cap: 5e10 gives 6.
    (1e12, 1.23e12, "usd", ["$1,250,000,000,000.00", "$1,200,000,000,000.00", "$1,150,000,000,000.00",
                            "$1,100,000,000,000.00", "$1,050,000,000,000.00", "$1,000,000,000,000.00"]),
    # Crypto quotes keep their significant digits; jpy has no fraction digit, kwd three.
    (0.00000151, 0.00000162, "btc", ["₿0.00000165", "₿0.00000160", "₿0.00000155", "₿0.00000150"]),
    (0.5, 1.5, "btc", ["₿1.50", "₿1.00", "₿0.50"]),
    (14800000, 15234567, "jpy", ["¥15,300,000", "¥15,200,000", "¥15,100,000", "¥15,000,000", "¥14,900,000",
                                 "¥14,800,000"]),
    (1.2346, 1.3, "kwd", ["KWD 1.300", "KWD 1.280", "KWD 1.260", "KWD 1.240", "KWD 1.220"]),
])
def test_value_ticks_of_several_magnitudes(low: float, high: float, vs_currency: str, expected: List[str],
                                           tmp_path: Path) -> None:
    assert value_labels(low, high, tmp_path, vs_currency) == expected


def test_a_flat_series_and_a_single_point_get_three_ticks_around_the_value(tmp_path: Path) -> None:
    assert texts([[T0, 5], [T0 + HOUR, 5], [T0 + 2 * HOUR, 5]], tmp_path) == [
        "$5.05", "$5.00", "$4.95", "2024-12-12 10:40", "11:15", "11:30", "11:45", "12:00", "2024-12-12 12:40"]
    assert texts([[T0, 28500.06]], tmp_path) == ["$29,000.00", "$28,500.00", "$28,000.00", "2024-12-12 10:40"]


def test_an_all_partial_series_is_dashed_lighter_and_noted(tmp_path: Path) -> None:
    svg = coinfolio.chart_svg({"points": [[T0, 3, True], [T0 + HOUR, 4, True], [T0 + 2 * HOUR, 2, True]]})
    report = render(svg, tmp_path)
    assert report["texts"] == [NOTE.format(3, 3), "$4.00", "$3.50", "$3.00", "$2.50", "$2.00", "2024-12-12 10:40",
                               "11:15", "11:30", "11:45", "12:00", "2024-12-12 12:40"]
    assert "stroke-dasharray" in svg
    assert report["colours"][RED]["count"] == 0 and report["colours"][GREEN]["count"] == 0, "lighter than the line"


def test_the_issues_partial_week_is_scaled_by_its_complete_points(fixture_text: Any, tmp_path: Path) -> None:
    with coinfolio.Engine(database=":memory:") as engine:
        engine.load(fixture_text("markets.json"))
        engine.set_holding("bitcoin", 0.5)
        engine.set_holding("ethereum", 3)
        history = engine.portfolio_history()
    assert [point[2] for point in history["points"][:3]] == [True, True, False]
    assert history["summary"]["min"] == 28368.19535  # the partial start, left out of the scale
    report = render(coinfolio.chart_svg(history, title="Portfolio"), tmp_path)
    assert report["texts"] == ["Portfolio", NOTE.format(2, 170), "$41,000.00", "$40,500.00", "$40,000.00", "$39,500.00",
                               "2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19"]
    green = report["colours"][GREEN]["columns"]
    assert len(green) > 400 and max(high for _, _, high in green) > 250, "the line fills the height"


def test_time_labels_are_utc_whatever_the_hosts_zone(tmp_path: Path) -> None:
    chart = {"points": [[T0, 1, True], [T0 + 12 * HOUR, 1.5], [T0 + 24 * HOUR, 2]]}
    here = coinfolio.chart_svg(chart)
    script = "import coinfolio, json, sys; sys.stdout.write(coinfolio.chart_svg(json.loads(sys.argv[1])))"
    for zone in ("Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham"):
        there = subprocess.run([sys.executable, "-c", script, json.dumps(chart)], env=dict(child_env(), TZ=zone),
                               capture_output=True, text=True, check=True).stdout
        assert there == here, zone
    assert render(here, tmp_path)["texts"] == [
        NOTE.format(1, 3), "$2.00", "$1.90", "$1.80", "$1.70", "$1.60", "$1.50", "2024-12-12 10:40", "18:00", "21:00",
        "Dec 13", "03:00", "2024-12-13 10:40"]


def test_days_for_a_week_and_months_for_a_year(tmp_path: Path) -> None:
    week = [[T0 + hour * HOUR, 100 + hour % 7] for hour in range(169)]
    assert texts(week, tmp_path)[-7:] == ["2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19"]
    january15 = 1705276800000
    year = [[january15 + day * 24 * HOUR, 40000 + day * 10] for day in range(366)]
    assert texts(year, tmp_path, width=1200)[-12:] == [
        "2024-01-15", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "2025-01-14"]


def test_every_text_is_escaped(tmp_path: Path) -> None:
    svg = coinfolio.chart_svg({"vs_currency": "chf", "points": [[T0, 1, True], [T0 + HOUR, 2]]},
                              title="<b>&amp;</b> ' \"")
    assert "<b>" not in svg
    labels = render(svg, tmp_path)["texts"]
    assert labels[:3] == ["<b>&amp;</b> ' \"", NOTE.format(1, 2), "CHF 2.02"]
