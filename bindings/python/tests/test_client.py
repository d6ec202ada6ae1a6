"""SPEC §5: the CoinGecko client against the loopback server (Tests/server/PROTOCOL.md)."""

from __future__ import annotations

import contextlib
import json
import socket
from typing import Any, Dict, Iterator

import pytest

import coinfolio
from coinfolio import (
    DecodeError,
    HTTPError,
    InvalidArgument,
    NetworkError,
    NotFound,
    RateLimited,
    Unauthorized,
)

DEFAULT_MARKETS_QUERY = {
    "vs_currency": "usd",
    "order": "market_cap_desc",
    "per_page": "250",
    "page": "1",
    "sparkline": "true",
    "price_change_percentage": "24h",
    "precision": "full",
}
DETAIL_QUERY = {
    "localization": "false",
    "tickers": "false",
    "market_data": "false",
    "community_data": "false",
    "developer_data": "false",
    "sparkline": "false",
}
SECRET = "CG-s3cr3t-key-do-not-leak"


def client(server: Any, **options: Any) -> coinfolio.Client:
    options.setdefault("base_url", server.base_url)
    return coinfolio.Client(**options)


@contextlib.contextmanager
def closed_port() -> Iterator[int]:
    """A 127.0.0.1 port that refuses connections: bound (so that nothing else can take it while
    the test runs, as it could once closed) but never listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def test_markets_sends_the_default_query_exactly(server, fixture_text) -> None:
    with client(server) as c:
        result = c.markets()
    [request] = server.log()
    assert request["path"] == "/api/v3/coins/markets"
    assert request["query"] == DEFAULT_MARKETS_QUERY
    assert [coin["id"] for coin in result["coins"]] == [
        coin["id"] for coin in json.loads(fixture_text("markets.json"))
    ]
    assert result["skipped"] == []


def test_markets_with_ids_adds_only_ids(server) -> None:
    with client(server) as c:
        result = c.markets(ids=["bitcoin", "1move token", "boringdao-[old]"])
    [request] = server.log()
    query = dict(request["query"])
    ids = query.pop("ids")
    assert query == DEFAULT_MARKETS_QUERY
    assert sorted(i.strip() for i in ids.split(",")) == ["1move token", "bitcoin", "boringdao-[old]"]
    assert sorted(coin["id"] for coin in result["coins"]) == [
        "1move token",
        "bitcoin",
        "boringdao-[old]",
    ]


def test_markets_options_reach_the_query(server) -> None:
    with client(server) as c:
        result = c.markets(vs_currency="eur", per_page=3, page=2, sparkline=False)
    [request] = server.log()
    assert request["query"] == dict(
        DEFAULT_MARKETS_QUERY, vs_currency="eur", per_page="3", page="2", sparkline="false"
    )
    assert [coin["id"] for coin in result["coins"]] == ["dogecoin", "weth", "shiba-inu"]


def test_more_than_250_ids_are_split_and_merged(server) -> None:
    wanted = ["bitcoin"] + [f"missing-{i}" for i in range(300)] + ["ethereum"]
    with client(server) as c:
        result = c.markets(ids=wanted)
    requests = server.log()
    assert len(requests) == 2
    for request in requests:
        assert len(request["query"]["ids"].split(",")) <= 250
    assert sorted(coin["id"] for coin in result["coins"]) == ["bitcoin", "ethereum"]


def test_bad_markets_request_is_rejected_before_any_request(server) -> None:
    with client(server) as c:
        for bad in ({"per_page": 0}, {"per_page": 251}):
            with pytest.raises(InvalidArgument):
                c.markets(**bad)
    assert server.log() == []


def test_global_data(server) -> None:
    with client(server) as c:
        data = c.global_data()["market_data"]
    assert data["total_market_cap"]["usd"] == 2.58e12
    [request] = server.log()
    assert request["path"] == "/api/v3/global"


def test_public_plan_sends_no_key(server) -> None:
    with client(server, plan="public") as c:
        c.global_data()
    headers = server.log()[0]["headers"]
    assert "x-cg-demo-api-key" not in headers
    assert "x-cg-pro-api-key" not in headers


def test_demo_plan_sends_the_demo_header(server) -> None:
    with client(server, plan="demo", api_key=SECRET) as c:
        c.global_data()
    headers = server.log()[0]["headers"]
    assert headers["x-cg-demo-api-key"] == SECRET
    assert "x-cg-pro-api-key" not in headers


def test_pro_plan_sends_the_pro_header(server) -> None:
    with client(server, plan="pro", api_key=SECRET) as c:
        c.global_data()
    headers = server.log()[0]["headers"]
    assert headers["x-cg-pro-api-key"] == SECRET
    assert "x-cg-demo-api-key" not in headers


@pytest.mark.parametrize(
    "options",
    [
        {"plan": "gold"},
        {"plan": "pro"},  # pro needs a key
        {"base_url": "not a url"},
        {"timeout_ms": -1},
        {"max_retries": -1},
        {"plan": "demo\udc80", "api_key": "k"},
    ],
)
def test_bad_client_config_is_invalid(options: Dict[str, Any]) -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.Client(**options)


def test_nan_in_config_is_invalid() -> None:
    with pytest.raises(InvalidArgument):
        coinfolio.Client(max_retry_wait_s=float("nan"))


def test_429_with_short_retry_after_is_retried_and_succeeds(server) -> None:
    server.fault(
        path="/api/v3/global",
        status=429,
        headers={"Retry-After": "1"},
        body='{"status":{"error_code":429,"error_message":"You\'ve exceeded the Rate Limit"}}',
    )
    with client(server) as c:
        data = c.global_data()
    assert data["market_data"]["total_market_cap"]["usd"] == 2.58e12
    assert len(server.requests_to("/global")) == 2


def test_429_with_long_retry_after_raises_rate_limited_at_once(server) -> None:
    server.fault(
        path="/api/v3/global",
        times=-1,
        status=429,
        headers={"Retry-After": "119"},
        body='{"status":{"error_code":429,"error_message":"You\'ve exceeded the Rate Limit"}}',
    )
    with client(server) as c:
        with pytest.raises(RateLimited) as info:
            c.global_data()
    assert info.value.retry_after_s == 119
    assert info.value.details["retry_after_s"] == 119
    assert len(server.requests_to("/global")) == 1


def test_429_without_retry_after_is_rate_limited_after_retries(server) -> None:
    server.fault(path="/api/v3/global", times=-1, status=429, body="error code: 1015")
    with client(server, max_retries=1) as c:
        with pytest.raises(RateLimited) as info:
            c.global_data()
    assert info.value.retry_after_s is None
    assert len(server.requests_to("/global")) == 2


def test_503_html_is_retried_then_raised_as_http_error(server) -> None:
    server.fault(
        path="/api/v3/global",
        times=3,
        status=503,
        headers={"Content-Type": "text/html"},
        body="<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>",
    )
    with client(server, max_retries=2) as c:
        with pytest.raises(HTTPError) as info:
            c.global_data()
    assert info.value.details["http_status"] == 503
    assert info.value.http_status == 503
    assert len(server.requests_to("/global")) == 3


def test_zero_retries_means_exactly_one_request(server) -> None:
    server.fault(path="/api/v3/global", times=-1, status=503, body="<html>busy</html>")
    with client(server, max_retries=0) as c:
        with pytest.raises(HTTPError):
            c.global_data()
    assert len(server.requests_to("/global")) == 1


def test_500_then_success_is_retried(server) -> None:
    server.fault(path="/api/v3/global", status=500, body='{"status":500,"error":"Internal Server Error"}')
    with client(server, max_retries=2) as c:
        c.global_data()
    assert len(server.requests_to("/global")) == 2


def test_4xx_other_than_429_is_not_retried(server) -> None:
    server.fault(path="/api/v3/global", times=-1, status=422, body='{"error":"bad"}')
    with client(server, max_retries=2) as c:
        with pytest.raises(HTTPError) as info:
            c.global_data()
    assert info.value.details["http_status"] == 422
    assert len(server.requests_to("/global")) == 1


def test_truncated_body_is_an_error(server) -> None:
    server.fault(path="/api/v3/global", times=-1, truncate=True)
    with client(server, max_retries=0) as c:
        with pytest.raises((NetworkError, DecodeError)):
            c.global_data()


def test_closed_connection_is_a_network_error(server) -> None:
    server.fault(path="/api/v3/global", times=-1, close=True)
    with client(server, max_retries=0) as c:
        with pytest.raises(NetworkError):
            c.global_data()


def test_slow_body_past_the_timeout_is_a_network_error(server) -> None:
    server.fault(path="/api/v3/global", delay_ms=3000)
    with client(server, timeout_ms=500, max_retries=0) as c:
        with pytest.raises(NetworkError):
            c.global_data()


def test_connection_refused_is_a_network_error() -> None:
    with closed_port() as port, coinfolio.Client(base_url=f"http://127.0.0.1:{port}/api/v3", max_retries=0) as c:
        with pytest.raises(NetworkError):
            c.global_data()


def test_html_body_on_200_is_a_decode_error(server) -> None:
    server.fault(path="/api/v3/global", body="<html>maintenance</html>")
    with client(server, max_retries=0) as c:
        with pytest.raises(DecodeError):
            c.global_data()


@pytest.mark.parametrize(
    "body",
    [
        '{"status":{"error_code":10002,"error_message":"API Key Missing"}}',
        '{"error":{"status":{"error_code":10010,"error_message":"wrong plan"}}}',
    ],
)
def test_unauthorized_never_shows_the_key(server, body: str) -> None:
    server.fault(path="/api/v3/global", times=-1, status=401, body=body)
    with client(server, plan="demo", api_key=SECRET) as c:
        with pytest.raises(Unauthorized) as info:
            c.global_data()
    error = info.value
    assert SECRET not in str(error)
    assert SECRET not in repr(error)
    assert SECRET not in error.message
    assert SECRET not in json.dumps(error.details)


def test_api_error_code_10011_is_unauthorized(server) -> None:
    server.fault(
        path="/api/v3/global",
        status=400,
        body='{"error":{"status":{"error_code":10011,"error_message":"pro key on public"}}}',
    )
    with client(server, plan="demo", api_key=SECRET, max_retries=0) as c:
        with pytest.raises(Unauthorized):
            c.global_data()


@pytest.mark.parametrize("coin_id", ["bitcoin", "1move token", "boringdao-[old]"])
def test_coin_detail_reaches_ids_with_spaces_and_brackets(server, coin_id: str) -> None:
    with client(server) as c:
        detail = c.coin_detail(coin_id)["detail"]
    assert detail["id"] == coin_id
    [request] = server.log()
    assert request["query"] == DETAIL_QUERY


def test_unknown_coin_is_not_found(server) -> None:
    with client(server) as c:
        with pytest.raises(NotFound):
            c.coin_detail("no-such-coin")
    assert len(server.log()) == 1


@pytest.mark.parametrize("coin_id", ["bitcoin?x=1", "%2e%2e", "bitcoin#frag", "global "])
def test_id_is_one_path_segment_and_never_another_endpoint(server, coin_id: str) -> None:
    with client(server) as c:
        with pytest.raises(NotFound):
            c.coin_detail(coin_id)
    [request] = server.log()
    assert request["path"].startswith("/api/v3/coins/")
    assert "x" not in request["query"]


@pytest.mark.parametrize("coin_id", ["..", "../global", "", ".", "a/b", "x" * 129, "\x01", "\udc80"])
def test_bad_ids_are_rejected_before_any_request(server, coin_id: str) -> None:
    with client(server) as c:
        with pytest.raises(InvalidArgument):
            c.coin_detail(coin_id)
    assert server.log() == []
