"""SPEC §17 through the ABI: ``Client.market_chart_range`` against the loopback server's range
route (Tests/server/PROTOCOL.md: ethereum is worth 110 + 1 usd per hour of the day, UTC; hourly
points at hh:02:00, daily ones at 00:00:00)."""

from __future__ import annotations

import time
from typing import Any

import pytest

import coinfolio
from coinfolio import InvalidArgument, NotFound, Unauthorized

from conftest import LoopbackServer


def day_start(days_ago: int) -> int:
    """00:00 UTC ``days_ago`` days before today, in UNIX seconds."""
    return (int(time.time()) // 86400 - days_ago) * 86400


def client(server: LoopbackServer, **extra: Any) -> coinfolio.Client:
    return coinfolio.Client(base_url=server.base_url, timeout_ms=5000, max_retries=0, **extra)


def test_a_range_of_one_day_long_ago_has_hourly_points_sent_as_unix_seconds(server: LoopbackServer) -> None:
    day = day_start(10)
    with client(server) as api:
        chart = api.market_chart_range("ethereum", day, day + 86400)
    assert len(chart["prices"]) == 24
    assert chart["prices"][0] == [(day + 120) * 1000, 110]
    assert chart["prices"][-1] == [(day + 23 * 3600 + 120) * 1000, 133]
    assert chart["market_caps"][0][1] == 110_000_000
    [request] = server.requests_to("/coins/ethereum/market_chart/range")
    assert request["query"] == {"vs_currency": "usd", "from": str(day), "to": str(day + 86400), "precision": "full"}
    assert server.counts() == {"market_chart_range": 1}


def test_rfc_3339_times_are_sent_as_whole_seconds_covering_them(server: LoopbackServer) -> None:
    day = day_start(3)
    text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(day))
    with client(server) as api:
        chart = api.market_chart_range("bitcoin", text + ".250Z", text + ".250+00:00", vs_currency="eur")
    assert chart["prices"] == []
    [request] = server.requests_to("/coins/bitcoin/market_chart/range")
    assert (request["query"]["from"], request["query"]["to"]) == (str(day), str(day + 1))


def test_a_long_range_has_daily_points_at_midnight(server: LoopbackServer) -> None:
    start = day_start(200)
    with client(server) as api:
        chart = api.market_chart_range("bitcoin", start - 3600, start + 100 * 86400, vs_currency="eur")
    assert len(chart["prices"]) == 101
    assert chart["prices"][0] == [start * 1000, 36000]
    assert all(t % 86_400_000 == 0 and v == 36000 for t, v in chart["prices"])


def test_older_than_365_days_is_unauthorized_on_the_public_plan(server: LoopbackServer) -> None:
    start = day_start(400)
    with client(server) as api, pytest.raises(Unauthorized) as caught:
        api.market_chart_range("ethereum", start, start + 86400)
    assert caught.value.details["error_code"] == 10012
    with client(server, plan="pro", api_key="test-key-123456") as pro:
        assert len(pro.market_chart_range("ethereum", start, start + 86400)["prices"]) == 24


def test_unknown_coin_is_not_found_and_a_coin_without_points_is_empty(server: LoopbackServer) -> None:
    day = day_start(5)
    with client(server) as api:
        with pytest.raises(NotFound):
            api.market_chart_range("no-such-coin", day, day + 60)
        assert api.market_chart_range("boringdao-[old]", day, day + 86400)["prices"] == []


@pytest.mark.parametrize(
    "start, end",
    [(-1, 10), (10, 253402300800), (20, 10), (1.5, 10), ("yesterday", 10), (True, 10), ("1969-12-31T23:59:59Z", 10)],
)
def test_bad_times_are_refused_and_send_nothing(server: LoopbackServer, start: Any, end: Any) -> None:
    with client(server) as api, pytest.raises(InvalidArgument):
        api.market_chart_range("ethereum", start, end)
    assert server.counts() == {}


def test_a_bad_id_or_currency_is_refused_and_sends_nothing(server: LoopbackServer) -> None:
    with client(server) as api:
        for bad_id in ("a/b", "", ".."):
            with pytest.raises(InvalidArgument):
                api.market_chart_range(bad_id, 0, 10)
        with pytest.raises(InvalidArgument):
            api.market_chart_range("ethereum", 0, 10, vs_currency="u$d")
    assert server.counts() == {}
