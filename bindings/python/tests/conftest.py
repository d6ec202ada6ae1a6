"""Shared fixtures: the repository paths, the loopback CoinGecko server, helper processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

TESTS = Path(__file__).resolve().parent
PACKAGE_ROOT = TESTS.parent  # bindings/python
REPO = PACKAGE_ROOT.parent.parent
SERVER_SCRIPT = REPO / "Tests" / "server" / "coingecko_server.py"
FIXTURES = REPO / "Tests" / "fixtures" / "coingecko"
SHARED_FIXTURES = REPO.parent / "shared" / "fixtures" / "coingecko"

# The tests drive the package in this checkout, installed or not.
if str(PACKAGE_ROOT) not in sys.path:
    sys.path.insert(0, str(PACKAGE_ROOT))


def child_env() -> Dict[str, str]:
    """Environment for helper Python processes: they import this checkout's package and the
    same library as the test process. In the PostgreSQL pass the test's database is emptied
    first (tests/backend.py), so that helpers inherit that it was and never empty it again."""
    import coinfolio
    from backend import empty_database_once, postgres_pass, postgres_url

    if postgres_pass():
        empty_database_once(postgres_url())

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(PACKAGE_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    env["COINFOLIO_LIBRARY"] = coinfolio.library_path
    return env


def cli_binary() -> Path:
    """The coinfolio-cli next to the library under test (or COINFOLIO_CLI); skips when not built."""
    explicit = os.environ.get("COINFOLIO_CLI")
    if explicit:
        return Path(explicit)
    library = os.environ.get("COINFOLIO_LIBRARY")
    folders = [Path(library).parent] if library else []
    folders += [REPO / ".build" / "debug", REPO / ".build" / "release"]
    for folder in folders:
        if (folder / "coinfolio-cli").exists():
            return folder / "coinfolio-cli"
    pytest.skip("coinfolio-cli is not built: run `make` (or set COINFOLIO_CLI)")


@pytest.fixture
def fixture_text() -> Any:
    """Reads a committed fixture file of Tests/fixtures/coingecko as text."""

    def read(name: str) -> str:
        return (FIXTURES / name).read_text(encoding="utf-8")

    return read


class LoopbackServer:
    """A running Tests/server/coingecko_server.py (see Tests/server/PROTOCOL.md)."""

    def __init__(self, process: "subprocess.Popen[bytes]", port: int) -> None:
        self.process = process
        self.port = port
        self.root = f"http://127.0.0.1:{port}"
        self.base_url = f"{self.root}/api/v3"

    def _control(self, route: str, payload: Optional[Dict[str, Any]] = None) -> Any:
        data = None if payload is None else json.dumps(payload).encode("utf-8")
        request = urllib.request.Request(
            f"{self.root}/__control/{route}",
            data=data,
            method="GET" if route in ("log", "counts") else "POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read().decode("utf-8"))

    def reset(self) -> None:
        """Forgets faults, route overrides and the request log."""
        self._control("reset")

    def fault(self, **spec: Any) -> None:
        """Queues a fault: path, times, status, headers, body, truncate, delay_ms, close."""
        self._control("fault", spec)

    def live(self) -> None:
        """Stamps answers with the current time (last_updated, updated_at), as the live API's
        are, until reset: a snapshot refreshed from it is not stale."""
        self._control("live", {"live": True})

    def route(self, **spec: Any) -> None:
        """Replaces a route's normal answer until reset: path, status, body."""
        self._control("route", spec)

    def log(self) -> List[Dict[str, Any]]:
        """Every CoinGecko request so far, oldest first."""
        return list(self._control("log")["requests"])

    def counts(self) -> Dict[str, int]:
        """Requests since the last reset by endpoint (``market_chart_range``, ``markets``, …)."""
        return dict(self._control("counts")["counts"])

    def requests_to(self, path: str) -> List[Dict[str, Any]]:
        """The logged requests whose path equals ``path`` (``/api/v3`` prefix optional)."""
        if not path.startswith("/api/v3"):
            path = "/api/v3" + path
        return [entry for entry in self.log() if entry["path"] == path]


@pytest.fixture(scope="session")
def _server_process() -> Iterator[LoopbackServer]:
    if not SERVER_SCRIPT.is_file():
        pytest.skip(f"the loopback server {SERVER_SCRIPT} is missing")
    process = subprocess.Popen(
        [
            sys.executable,
            str(SERVER_SCRIPT),
            "--port",
            "0",
            "--fixtures",
            str(FIXTURES),
            "--exit-on-stdin-eof",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode("ascii", "replace").strip()
        if not line.startswith("PORT="):
            raise RuntimeError(f"coingecko_server.py printed {line!r}, expected PORT=<n>")
        yield LoopbackServer(process, int(line.split("=", 1)[1]))
    finally:
        if process.stdin is not None:
            process.stdin.close()  # --exit-on-stdin-eof
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


@pytest.fixture
def server(_server_process: LoopbackServer) -> Iterator[LoopbackServer]:
    """The loopback CoinGecko server, reset before and after the test."""
    _server_process.reset()
    yield _server_process
    _server_process.reset()


@pytest.fixture(autouse=True)
def _backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the PostgreSQL pass, every Store and Engine a test opens on a SQLite location opens the
    test cluster instead, with the location as its owner (see tests/backend.py)."""
    import coinfolio
    from backend import place, postgres_pass

    if not postgres_pass():
        return
    store_init = coinfolio.Store.__init__
    engine_init = coinfolio.Engine.__init__

    def store(self: Any, path: Any, owner: Optional[str] = None, **kwargs: Any) -> None:
        store_init(self, *place(path, owner), **kwargs)

    def engine(self: Any, database: Any = ":memory:", *args: Any, owner: Optional[str] = None, **kwargs: Any) -> None:
        database, owner = place(database, owner)
        engine_init(self, database, *args, owner=owner, **kwargs)

    monkeypatch.setattr(coinfolio.Store, "__init__", store)
    monkeypatch.setattr(coinfolio.Engine, "__init__", engine)


def pytest_collection_modifyitems(config: Any, items: List[Any]) -> None:
    """Tests marked sqlite_only (file paths, file permissions, SQLite's own files) are about
    SQLite itself: the PostgreSQL pass leaves them to the SQLite pass."""
    from backend import postgres_pass

    if not postgres_pass():
        return
    skip = pytest.mark.skip(reason="about SQLite files; run in the SQLite pass")
    for item in items:
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def fresh_database() -> Iterator[str]:
    """A new, empty database on the PostgreSQL test cluster (psql), dropped after the test."""
    from backend import postgres_url

    url = postgres_url()
    name = f"cf_py_{uuid.uuid4().hex}"
    subprocess.run(["psql", url, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    yield url.rsplit("/", 1)[0] + "/" + name
    subprocess.run(["psql", url, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh SQLite file path in the test's temporary folder (not created yet)."""
    return tmp_path / "portfolio.sqlite"


@pytest.fixture
def ledger_engine(tmp_path: Path) -> Iterator[Any]:
    """An engine on a SQLite file of the test's own (in the PostgreSQL pass, the cluster with an
    owner of its own): for the ledger's tests."""
    import coinfolio

    with coinfolio.Engine(database=str(tmp_path / "ledger.sqlite")) as opened:
        yield opened


def cents(value: object) -> Any:
    """A Decimal answer to the cent (what a published worked example shows)."""
    from decimal import Decimal

    assert isinstance(value, Decimal)
    return value.quantize(Decimal("0.01"))


def ledger_text(engine: Any) -> str:
    """Every row of every portfolio: what "the ledger unchanged" compares."""
    text: str = engine.export_csv(all_portfolios=True)
    return text


def describe(t: Any, time: bool = False) -> str:
    """A ledger row as one line: ``[time] kind coin amount @price fee F [coin] type [(price
    currency)]``, as the Swift and C tests write rows (the time first with ``time=True``)."""
    text = f"{t['kind']} {t['coin_id']} {t['amount']:f}"
    if t["kind"] not in ("transfer_in", "transfer_out"):
        text += f" @{t['price']:f}" if t["price"] is not None else " @pending"
    if t["fee"] != 0:
        text += f" fee {t['fee']:f}" + (f" {t['fee_coin_id']}" if t["fee_coin_id"] else "")
    if t["income_type"]:
        text += f" {t['income_type']}"
    if t.get("price_currency"):
        text += f" ({t['original_price']:f} {t['price_currency']})"
    return f"{t['timestamp']} {text}" if time else text


def ledger_rows(engine: Any, portfolio: str = "main", time: bool = False) -> List[str]:
    """A portfolio's rows as ``describe`` writes them, in the ledger's order."""
    return [describe(t, time) for t in engine.transactions(portfolio=portfolio, limit=1000)["transactions"]]
