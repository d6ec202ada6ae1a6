"""The ctypes layer itself: import, versions, handle lifetime."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import weakref
from pathlib import Path

import pytest

import coinfolio
from coinfolio import _ffi

from conftest import child_env


def test_abi_version_matches_the_header() -> None:
    assert coinfolio.abi_version() == coinfolio.ABI_VERSION == 1


def test_version_is_a_non_empty_string() -> None:
    assert isinstance(coinfolio.version(), str)
    assert coinfolio.version()


def test_every_public_name_is_exported() -> None:
    for name in coinfolio.__all__:
        assert hasattr(coinfolio, name), name


def test_every_header_function_is_declared_once() -> None:
    import re

    from conftest import REPO

    header = (REPO / "include" / "coinfolio.h").read_text(encoding="utf-8")
    in_header = set(re.findall(r"\b(cf_[a-z0-9_]+)\s*\(", header))
    declared = [name for name, *_ in _ffi._FUNCTIONS]
    assert len(declared) == len(set(declared))
    assert set(declared) == in_header


def test_errors_are_classified_by_status() -> None:
    assert issubclass(coinfolio.InvalidArgument, coinfolio.CoinfolioError)
    assert issubclass(coinfolio.InvalidArgument, ValueError)
    error = coinfolio.errors.error_for_status(5, "rate_limited", "slow down", {"retry_after_s": 7})
    assert isinstance(error, coinfolio.RateLimited)
    assert error.retry_after_s == 7
    assert error.status == 5 and error.code == "rate_limited" and error.message == "slow down"
    assert type(coinfolio.errors.error_for_status(99)) is coinfolio.CoinfolioError


def test_missing_library_names_the_environment_variable(tmp_path) -> None:
    env = child_env()
    env["COINFOLIO_LIBRARY"] = str(tmp_path / "nope.so")
    result = subprocess.run(
        [sys.executable, "-c", "import coinfolio"], env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "COINFOLIO_LIBRARY" in result.stderr


def test_close_is_idempotent_and_handles_are_context_managers() -> None:
    with coinfolio.Store(":memory:") as store:
        store.set_holding("bitcoin", 1)
    assert store.closed
    store.close()
    store.close()
    with pytest.raises(coinfolio.InvalidArgument):
        store.holdings()
    engine = coinfolio.Engine(database=":memory:")
    engine.close()
    engine.close()
    client = coinfolio.Client()
    client.close()
    client.close()


def test_close_from_many_threads_at_once_closes_once() -> None:
    for _ in range(20):
        engine = coinfolio.Engine(database=":memory:")
        barrier = threading.Barrier(8)

        def close() -> None:
            barrier.wait()
            engine.close()

        threads = [threading.Thread(target=close) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert engine.closed


def test_close_while_other_threads_call_never_crashes() -> None:
    store = coinfolio.Store(":memory:")
    errors = []
    start = threading.Event()

    def work(n: int) -> None:
        start.wait()
        for i in range(200):
            try:
                store.set_holding(f"coin-{n}-{i}", i + 1)
                store.holdings()
            except coinfolio.InvalidArgument:
                return  # closed under us: the binding says so instead of crashing
            except Exception as exc:  # pragma: no cover
                errors.append(exc)
                return

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    start.set()
    store.close()
    for thread in threads:
        thread.join()
    assert errors == []


def test_forgotten_handles_are_closed_by_the_garbage_collector(tmp_path) -> None:
    """Handles nobody closed are closed when collected: once the last connection to the file
    is closed, SQLite checkpoints the write-ahead log and removes it (and the shared memory
    file), and what was written is there for the next handle."""
    path = tmp_path / "forgotten.sqlite"
    forgotten = []
    for amount in range(1, 51):
        store = coinfolio.Store(str(path))
        store.set_holding("bitcoin", amount)
        engine = coinfolio.Engine(database=str(path))
        forgotten += [weakref.ref(store), weakref.ref(engine)]
        cycle = [engine]
        cycle.append(cycle)  # only the cycle collector frees this one
        del store, engine, cycle
    gc.collect()
    assert all(ref() is None for ref in forgotten)
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists(), "every connection was closed"
    with coinfolio.Store(str(path)) as store:
        assert store.holdings() == [{"coin_id": "bitcoin", "amount": 50}]


def test_open_handles_at_interpreter_exit_are_safe() -> None:
    code = (
        "import coinfolio\n"
        "s = coinfolio.Store(':memory:'); s.set_holding('bitcoin', 1)\n"
        "e = coinfolio.Engine(database=':memory:')\n"
        "c = coinfolio.Client()\n"
        "cycle = [e]; cycle.append(cycle)\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], env=child_env(), capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert "Exception ignored" not in result.stderr


def test_nul_in_a_string_argument_is_invalid() -> None:
    with coinfolio.Store(":memory:") as store:
        with pytest.raises(coinfolio.InvalidArgument):
            store.set_holding("bit\x00coin", 1)
        assert store.holdings() == []


# --- arguments of the wrong Python type (SPEC §9): a TypeError naming the argument ------------------

def test_engine_api_that_is_not_a_mapping_is_a_type_error_naming_it():
    with pytest.raises(TypeError) as raised:
        coinfolio.Engine(api="http://127.0.0.1:9/api/v3")
    assert str(raised.value) == "api must be a mapping (a dict), not str"


def test_chart_svg_of_none_is_a_type_error_naming_the_chart():
    with pytest.raises(TypeError) as raised:
        coinfolio.chart_svg(None)  # type: ignore[arg-type]
    assert str(raised.value) == "chart must be a dict, str or bytes, not NoneType"
