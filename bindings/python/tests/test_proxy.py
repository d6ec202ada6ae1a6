"""Issue 31 finding 2, through the ABI with a real proxy process on loopback that records what
reaches it (Tests/server/recording_proxy.py): a loopback request never goes through a proxy, and a
key never reaches one in clear text; https through a proxy is a tunnel (CONNECT) the key stays
inside. libcurl reads the proxy from the environment, so each case runs in a child process with
the variables set (this process's own control requests stay direct)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest
from conftest import REPO, child_env

PROXY_SCRIPT = REPO / "Tests" / "server" / "recording_proxy.py"
KEY = "CG-proxy-test-key-7Hq2"
PROXY_VARIABLES = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY")

CALL = """
import json, sys, coinfolio
config = json.loads(sys.argv[1])
try:
    with coinfolio.Client(**config) as client:
        client.global_data()
    print(json.dumps({"ok": True}))
except coinfolio.CoinfolioError as error:
    print(json.dumps({"ok": False, "code": error.code, "message": error.message, "details": error.details}))
"""


class RecordingProxy:
    def __init__(self, log: Path, forward_port: int) -> None:
        self.log_path = log
        self.process = subprocess.Popen(
            [sys.executable, str(PROXY_SCRIPT), "--log", str(log), "--forward-to", f"127.0.0.1:{forward_port}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.process.stdout is not None
        self.url = f"http://127.0.0.1:{int(self.process.stdout.readline().decode().split('=')[1])}"

    def requests(self) -> List[Dict[str, Any]]:
        return [json.loads(line) for line in self.log_path.read_text().splitlines()]

    def stop(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def proxy(server: Any, tmp_path: Path) -> Iterator[RecordingProxy]:
    running = RecordingProxy(tmp_path / "proxy.log", server.port)
    yield running
    running.stop()


def call(config: Dict[str, Any], **variables: str) -> Dict[str, Any]:
    env = {k: v for k, v in child_env().items() if k not in PROXY_VARIABLES}
    env.update(variables)
    result = subprocess.run([sys.executable, "-c", CALL, json.dumps({"max_retries": 0, "timeout_ms": 5000, **config})],
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout))


@pytest.mark.parametrize("variable", ["http_proxy", "all_proxy", "ALL_PROXY"])
def test_a_loopback_request_never_goes_through_a_proxy(server: Any, proxy: RecordingProxy, variable: str) -> None:
    answer = call({"base_url": server.base_url, "plan": "demo", "api_key": KEY}, **{variable: proxy.url})
    assert answer["ok"] is False and answer["code"] == "network"
    assert answer["details"] == {"reason": "proxy", "variable": variable, "sent": False}
    assert "add 127.0.0.1 to no_proxy" in answer["message"] and proxy.url not in answer["message"]
    assert proxy.requests() == [], "nothing reached the proxy"
    assert server.log() == [], "nothing was sent at all"


def test_http_proxy_in_upper_case_is_ignored_and_the_request_goes_direct(server: Any, proxy: RecordingProxy) -> None:
    # libcurl never reads HTTP_PROXY (a CGI request can set it): the request goes straight to the server.
    assert call({"base_url": server.base_url, "plan": "demo", "api_key": KEY}, HTTP_PROXY=proxy.url)["ok"] is True
    assert proxy.requests() == []
    assert [r["headers"].get("x-cg-demo-api-key") for r in server.log()] == [KEY]


@pytest.mark.parametrize("exceptions", ["127.0.0.1", "localhost,127.0.0.0/8,::1", " example.org , 127.0.0.1 "])
def test_no_proxy_listing_loopback_sends_it_directly(server: Any, proxy: RecordingProxy, exceptions: str) -> None:
    answer = call({"base_url": server.base_url, "plan": "demo", "api_key": KEY}, http_proxy=proxy.url, no_proxy=exceptions)
    assert answer["ok"] is True, answer
    assert proxy.requests() == []
    assert [r["headers"].get("x-cg-demo-api-key") for r in server.log()] == [KEY]


def test_plain_http_elsewhere_goes_through_the_proxy_only_without_a_key(server: Any, proxy: RecordingProxy) -> None:
    base = "http://coingecko.invalid/api/v3"
    keyed = call({"base_url": base, "plan": "demo", "api_key": KEY}, http_proxy=proxy.url)
    assert keyed["ok"] is False and keyed["code"] == "invalid_argument"
    assert proxy.requests() == [], "a key over plain http is refused before anything is sent"
    assert call({"base_url": base}, http_proxy=proxy.url)["ok"] is True, "no key: the proxy may carry it"
    [request] = proxy.requests()
    assert request["method"] == "GET" and request["target"].startswith("http://coingecko.invalid/api/v3/global")
    assert not [name for name in request["headers"] if "api-key" in name]


def test_https_through_a_proxy_is_a_tunnel_the_key_stays_inside(proxy: RecordingProxy) -> None:
    answer = call({"base_url": "https://coingecko.invalid/api/v3", "plan": "pro", "api_key": KEY},
                  https_proxy=proxy.url)
    assert answer["ok"] is False and answer["code"] == "network"  # this proxy refuses every tunnel
    [request] = proxy.requests()
    assert request["method"] == "CONNECT" and request["target"] == "coingecko.invalid:443"
    assert KEY not in json.dumps(request), "the proxy saw the host, never the key"


def test_the_cli_reaches_a_loopback_server_directly_under_a_proxy(server: Any, proxy: RecordingProxy, tmp_path: Path) -> None:
    from conftest import cli_binary

    env = {k: v for k, v in child_env().items() if k not in PROXY_VARIABLES}
    env.update(NO_COLOR="1", COINFOLIO_DB=str(tmp_path / "cli.sqlite"), COINFOLIO_BASE_URL=server.base_url,
               COINFOLIO_API_KEY=KEY, http_proxy=proxy.url, ALL_PROXY=proxy.url, NO_PROXY="example.org")
    result = subprocess.run([str(cli_binary()), "--plan", "demo", "home"], env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Market Cap" in result.stdout
    assert proxy.requests() == [], "the CLI adds loopback to no_proxy: nothing reached the proxy"
    assert {r["headers"].get("x-cg-demo-api-key") for r in server.log()} == {KEY}
