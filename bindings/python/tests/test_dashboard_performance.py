"""The dashboard's /performance page (SPEC §19), over HTTP and in a real headless chromium: the
figures of Engine.performance, the value chart drawn by the library's SVG renderer, the range
links, the days without a stored price listed. The dashboard runs offline over a database that
holds one buy of 1 bitcoin 20 days ago at 100 and the committed markets snapshot (bitcoin at
57,000.123): with no stored price points the days between are missing, the last value is the
snapshot's."""

from __future__ import annotations

import datetime
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

import coinfolio
from conftest import PACKAGE_ROOT, REPO, child_env
from test_dashboard import Dashboard, dom_of, near, png_colours, screenshot_of, svg_texts, visible_text

DASHBOARD = PACKAGE_ROOT / "examples" / "dashboard.py"


@pytest.fixture
def bought() -> datetime.datetime:
    """The time of the one buy: 20 days before the test started."""
    return datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=20)


def days_missing(bought: datetime.datetime, now: datetime.datetime) -> int:
    """The days without a stored price of a 30d report asked at `now`: its points at each UTC
    midnight after the buy and before `now` (the last point, at `now`, is the snapshot's)."""
    first = datetime.datetime.combine(bought.date() + datetime.timedelta(days=1), datetime.time(), datetime.timezone.utc)
    return max(0, -((first - now) // datetime.timedelta(days=1)))  # midnights in [first, now)


@pytest.fixture
def dashboard(tmp_path: Path, bought: datetime.datetime) -> Iterator[Dashboard]:
    database = tmp_path / "performance.sqlite"
    with coinfolio.Engine(database=str(database)) as engine:
        engine.add_transaction("bitcoin", "buy", 1, price=100, fee=1, timestamp=bought.isoformat())
        engine.load((REPO / "Tests" / "fixtures" / "coingecko" / "markets.json").read_text())
    process = subprocess.Popen(
        [sys.executable, str(DASHBOARD), "--port", "0", "--db", str(database), "--offline"],
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line.startswith("Serving on http://127.0.0.1:"), line
    running = Dashboard(process, line.split(" ", 2)[2])
    yield running
    process.terminate()
    process.wait(timeout=10)


def test_performance_over_http(dashboard: Dashboard) -> None:
    status, body, headers = dashboard.get("/performance?range=30d")
    assert status == 200
    assert "default-src 'none'" in headers["Content-Security-Policy"] and "<script" not in body.lower()
    assert '<a href="/performance?range=7d">7d</a>' in body and "<strong>30d</strong>" in body
    assert '<a href="/performance">Performance</a>' in dashboard.get("/")[1], "the page is in the navigation"
    assert dashboard.get("/performance?range=2y")[0] == 404
    assert dashboard.get("/performance")[0] == 200, "1y by default"


def test_performance_in_chromium_shows_the_figures_and_the_value_chart(
    dashboard: Dashboard, bought: datetime.datetime, tmp_path: Path
) -> None:
    url = dashboard.url + "performance?range=30d"
    # 20 midnights lie between the buy and the report, or 21 when a UTC midnight passed since the
    # buy's time was taken: the count is taken from the clock on both sides of the page's request.
    before = datetime.datetime.now(datetime.timezone.utc)
    dom = dom_of(url, tmp_path)
    after = datetime.datetime.now(datetime.timezone.utc)
    counts = {days_missing(bought, before), days_missing(bought, after)}
    assert counts <= {20, 21}, counts
    text = visible_text(dom)
    for shown in (
        "Start Value $0.00", "End Value $57,000.12", "Net Flows +$101.00", "Gain +$56,899.12",
        "Time-Weighted Return", "Money-Weighted Return (a year)", "Coverage",
    ):
        assert shown in text, shown
    assert any(f"No stored price on {count} days" in text for count in counts), (counts, text)
    assert "(bitcoin)" in text and "never guessed" in text
    labels = svg_texts(dom)
    assert labels[0] == "Portfolio value, 30d", labels
    assert "$57,000.12" in " ".join(labels) or any(label.startswith("$") for label in labels), labels
    colours = png_colours(screenshot_of(url, tmp_path, "performance"))
    assert near(colours, (0x15, 0x80, 0x3D)), "the gain is drawn green"
