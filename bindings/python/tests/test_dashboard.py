"""SPEC §15: examples/dashboard.py, over HTTP and in a real headless chromium.

The dashboard runs as a separate process against the loopback CoinGecko server, with a database
that holds 0.5 bitcoin. The browser tests load each page in Debian's chromium (``--dump-dom`` for
what the page shows, ``--screenshot`` for what it drew). Without chromium they skip, unless
COINFOLIO_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import urllib.error
import urllib.request
import zlib
from pathlib import Path
from typing import Iterator, List, Set, Tuple

import pytest

import coinfolio
from conftest import PACKAGE_ROOT, child_env

DASHBOARD = PACKAGE_ROOT / "examples" / "dashboard.py"
STATISTICS = {
    "Market Cap": "$2.58Tr",
    "24h Volume": "$342.00Bn",
    "BTC Dominance": "42.50%",
    "Portfolio Value": "$28,500.06",
}
GREEN = (0x16, 0xA3, 0x4A)  # the dashboard's sparkline colours
RED = (0xDC, 0x26, 0x26)
HAS_CHARTS = hasattr(coinfolio.Engine, "chart") and (
    hasattr(coinfolio, "chart_svg") or hasattr(coinfolio.Engine, "chart_svg")
)


class Dashboard:
    def __init__(self, process: "subprocess.Popen[str]", url: str) -> None:
        self.process = process
        self.url = url

    def get(self, path: str) -> Tuple[int, str, dict]:
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=30) as response:
                return response.status, response.read().decode("utf-8"), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8"), dict(error.headers)


def start_dashboard(server, database: Path) -> Dashboard:
    process = subprocess.Popen(
        [sys.executable, str(DASHBOARD), "--port", "0", "--db", str(database), "--base-url", server.base_url],
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if not line.startswith("Serving on http://127.0.0.1:"):
        process.kill()
        raise AssertionError(f"dashboard.py printed {line!r}")
    return Dashboard(process, line.split(" ", 2)[2])


@pytest.fixture
def dashboard(server, tmp_path) -> Iterator[Dashboard]:
    database = tmp_path / "dashboard.sqlite"
    with coinfolio.Engine(database=database) as engine:
        engine.set_holding("bitcoin", 0.5)
    running = start_dashboard(server, database)
    yield running
    running.process.terminate()
    running.process.wait(timeout=10)


# ------------------------------------------------------------------ over HTTP


def test_pages_answer_with_a_script_free_policy(dashboard) -> None:
    for path in ("/", "/portfolio", "/coin/bitcoin"):
        status, body, headers = dashboard.get(path)
        assert status == 200, path
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        assert "<script" not in body.lower()


def test_only_the_loopback_address_is_served(dashboard) -> None:
    assert dashboard.url.startswith("http://127.0.0.1:")


def test_requests_never_change_state(dashboard, server) -> None:
    request = urllib.request.Request(dashboard.url, data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 405
    before = len(server.requests_to("/coins/markets"))
    dashboard.get("/")
    dashboard.get("/portfolio")
    assert len(server.requests_to("/coins/markets")) == before, "pages read the snapshot, never refresh"


def test_unknown_pages_and_coins_are_404(dashboard) -> None:
    assert dashboard.get("/nope")[0] == 404
    assert dashboard.get("/coin/no-such-coin")[0] == 404


def test_a_port_in_use_is_one_line_and_status_1_not_a_traceback() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, str(DASHBOARD), "--port", str(port), "--offline"],
                                env=child_env(), capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == f"dashboard.py: cannot serve on 127.0.0.1:{port}: Address already in use\n"


def test_every_string_from_coingecko_is_escaped(server, tmp_path) -> None:
    hostile = "<script>alert(1)</script>"
    server.route(
        path="/api/v3/coins/markets",
        body=json.dumps([{"id": "evil\"><b>", "symbol": "<i>x", "name": hostile, "current_price": 1.0,
                          "market_cap_rank": 1}]),
    )
    server.route(
        path="/api/v3/coins/evil\"><b>",
        status=200,
        body=json.dumps({"id": "evil\"><b>", "symbol": "<i>x", "name": hostile,
                         "description": {"en": "&lt;script&gt;alert(2)&lt;/script&gt;"},
                         "links": {"homepage": ["javascript:alert(3)"], "subreddit_url": "https://r.example/<x>"}}),
    )
    running = start_dashboard(server, tmp_path / "hostile.sqlite")
    try:
        status, home, _ = running.get("/")
        assert status == 200
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in home
        assert "<script" not in home and "<b>" not in home and "<i>" not in home
        status, detail, _ = running.get("/coin/" + urllib.request.quote('evil"><b>', safe=""))
        assert status == 200
        assert "<script" not in detail and "<b>" not in detail
        assert "javascript:" not in detail, "only http(s) links are kept"
        assert "https://r.example/&lt;x&gt;" in detail
    finally:
        running.process.terminate()
        running.process.wait(timeout=10)


# ------------------------------------------------------------------ in chromium


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("COINFOLIO_REQUIRE_BROWSER") == "1":
        pytest.fail("chromium is not installed (COINFOLIO_REQUIRE_BROWSER=1)")
    pytest.skip("chromium is not installed (apt-get install chromium)")


def browse(url: str, *options: str, profile: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={profile}", *options, url],
        capture_output=True, text=True, timeout=120,
    )


def dom_of(url: str, tmp_path: Path) -> str:
    result = browse(url, "--dump-dom", profile=tmp_path / "profile")
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def screenshot_of(url: str, tmp_path: Path, name: str) -> Path:
    target = tmp_path / f"{name}.png"
    result = browse(url, f"--screenshot={target}", "--window-size=1100,1000", profile=tmp_path / "profile")
    assert result.returncode == 0 and target.is_file(), result.stderr[-2000:]
    return target


def png_colours(path: Path) -> Set[Tuple[int, int, int]]:
    """The RGB colours of an 8-bit RGB or RGBA, non-interlaced PNG (what chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat = 8, b""
    width = height = channels = 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and interlace == 0 and colour_type in (2, 6), (depth, colour_type, interlace)
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours: Set[Tuple[int, int, int]] = set()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        for i in range(0, stride, channels):
            colours.add((line[i], line[i + 1], line[i + 2]))
        previous = line
    return colours


def near(colours: Set[Tuple[int, int, int]], target: Tuple[int, int, int], tolerance: int = 12) -> bool:
    return any(all(abs(c - t) <= tolerance for c, t in zip(colour, target)) for colour in colours)


def visible_text(dom: str) -> str:
    """The DOM with tags removed, whitespace collapsed (enough to find titles and values)."""
    import re

    return " ".join(re.sub(r"<[^>]+>", " ", dom).split())


def test_home_in_chromium_shows_the_statistics_and_sparklines(dashboard, tmp_path) -> None:
    dom = dom_of(dashboard.url, tmp_path)
    text = visible_text(dom)
    for title, value in STATISTICS.items():
        assert f"{title} {value}" in text, f"{title} {value} on the home page"
    assert "Bitcoin BTC $57,000.123 +2.15%" in text
    assert dom.count('class="sparkline"') >= 5
    colours = png_colours(screenshot_of(dashboard.url, tmp_path, "home"))
    assert near(colours, GREEN), "a rising sparkline is drawn in green"
    assert near(colours, RED), "a falling sparkline is drawn in red"


def test_portfolio_in_chromium_shows_holdings_and_total(dashboard, tmp_path) -> None:
    url = dashboard.url + "portfolio"
    text = visible_text(dom_of(url, tmp_path))
    assert "Total Value $28,500.06" in text
    assert "Bitcoin BTC 0.5 $28,500.06 +2.15%" in text
    if hasattr(coinfolio.Engine, "pnl"):
        assert "Profit and loss" in text
    screenshot_of(url, tmp_path, "portfolio")


def svg_texts(dom: str) -> List[str]:
    """The texts of the chart's SVG in the page chromium parsed, entities decoded."""
    import html
    import re

    chart = dom[dom.index('<div class="chart">'):]
    chart = chart[:chart.index("</svg>")]
    return [html.unescape(text) for text in re.findall(r"<text[^>]*>(.*?)</text>", chart, re.S)]


@pytest.mark.skipif(not HAS_CHARTS, reason="the library does not render charts")
def test_portfolio_chart_in_chromium_has_round_ticks_and_a_partial_note(server, tmp_path) -> None:
    # The portfolio: 0.5 BTC and 3 ETH; ethereum's sparkline is two hours shorter.
    database = tmp_path / "partial.sqlite"
    with coinfolio.Engine(database=database) as engine:
        engine.set_holding("bitcoin", 0.5)
        engine.set_holding("ethereum", 3)
    running = start_dashboard(server, database)
    try:
        url = running.url + "portfolio"
        dom = dom_of(url, tmp_path)
        # The labels chromium has, read from the SVG (not from pixels): round values written
        # like values, days for the week, and the note on the two partial hours.
        assert svg_texts(dom) == [
            "Portfolio value, 7 days", "Dashed: 2 of 170 points miss a holding\u2019s price",
            "$41,000.00", "$40,500.00", "$40,000.00", "$39,500.00",
            "2024-12-12", "Dec 14", "Dec 15", "Dec 16", "Dec 17", "Dec 18", "2024-12-19",
        ]
        assert "stroke-dasharray" in dom[dom.index('<div class="chart">'):]
        colours = png_colours(screenshot_of(url, tmp_path, "portfolio-partial"))
        assert near(colours, (0x16, 0xC7, 0x84)), "the chart's rising line is on the screen"
    finally:
        running.process.terminate()
        running.process.wait(timeout=10)


def test_coin_page_in_chromium_shows_overview_details_and_links(dashboard, tmp_path) -> None:
    url = dashboard.url + "coin/bitcoin"
    dom = dom_of(url, tmp_path)
    text = visible_text(dom)
    assert "Bitcoin (BTC)" in text
    for shown in ("Current Price $57,000.123 +2.15%", "Market Capitalization $1.10Tr", "Rank 1",
                  "Volume $47.15Bn", "24h High $58,197.10", "24h Low $55,746.10", "Hashing Algorithm SHA-256"):
        assert shown in text, shown
    assert "Description" in text and "peer-to-peer" in text
    colours = png_colours(screenshot_of(url, tmp_path, "coin"))
    if HAS_CHARTS:
        import re

        chart = dom[dom.index('<div class="chart">'):]
        assert "<svg" in chart and ("<path" in chart or "<polyline" in chart), "the chart's SVG is in the page"
        strokes: List[str] = re.findall(r'stroke="#([0-9a-fA-F]{6})"', chart)
        assert strokes, "the chart's line has a colour"
        line = tuple(int(strokes[0][i:i + 2], 16) for i in (0, 2, 4))
        assert near(colours, line), f"the chart's line colour #{strokes[0]} is on the screen"  # type: ignore[arg-type]
    else:
        assert '<div class="chart">' not in dom, "no chart before the library renders charts"
