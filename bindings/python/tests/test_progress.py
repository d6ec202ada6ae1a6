"""SPEC §15: progress of long work, through cf_engine_set_progress."""

from __future__ import annotations

import json
import threading
from typing import Any, Dict, List

import pytest

import coinfolio
from coinfolio import InvalidArgument


def universe(count: int) -> str:
    """A /coins/markets universe of ``count`` small coins, ranked 1…count."""
    return json.dumps(
        [
            {"id": f"coin-{n:04d}", "symbol": f"c{n}", "name": f"Coin {n}", "current_price": 1.0,
             "market_cap_rank": n}
            for n in range(1, count + 1)
        ]
    )


def test_five_page_refresh_reports_every_page_then_global(server) -> None:
    server.route(path="/api/v3/coins/markets", body=universe(1250))
    reports: List[Dict[str, Any]] = []
    threads: List[int] = []

    def on_progress(progress: Dict[str, Any]) -> None:
        reports.append(progress)
        threads.append(threading.get_ident())

    with coinfolio.Engine(api={"base_url": server.base_url}, coin_limit=1250) as engine:
        engine.set_progress(on_progress)
        assert engine.refresh()["coins"] == 1250
    assert reports == [
        {"phase": "markets", "done": 0, "total": 5},
        {"phase": "markets", "done": 1, "total": 5},
        {"phase": "markets", "done": 2, "total": 5},
        {"phase": "markets", "done": 3, "total": 5},
        {"phase": "markets", "done": 4, "total": 5},
        {"phase": "markets", "done": 5, "total": 5},
        {"phase": "global", "done": 0, "total": 1},
        {"phase": "global", "done": 1, "total": 1},
    ]
    assert set(threads) == {threading.get_ident()}
    assert len(server.requests_to("/coins/markets")) == 5


def test_a_short_last_page_ends_the_phase_with_total_equal_to_done(server) -> None:
    server.route(path="/api/v3/coins/markets", body=universe(300))
    reports: List[Dict[str, Any]] = []
    with coinfolio.Engine(api={"base_url": server.base_url}, coin_limit=1000) as engine:
        engine.set_progress(reports.append)
        engine.refresh()
    markets = [report for report in reports if report["phase"] == "markets"]
    assert markets == [
        {"phase": "markets", "done": 0, "total": 4},
        {"phase": "markets", "done": 1, "total": 4},
        {"phase": "markets", "done": 2, "total": 2},
    ]


def test_held_coins_missing_from_the_pages_report_the_ids_phase(server) -> None:
    reports: List[Dict[str, Any]] = []
    with coinfolio.Engine(api={"base_url": server.base_url}, coin_limit=1) as engine:
        engine.set_holding("ethereum", 1.0)
        engine.set_holding("tether", 2.0)
        engine.set_progress(reports.append)
        engine.refresh()
    assert reports[-2:] == [
        {"phase": "ids", "done": 0, "total": 2},
        {"phase": "ids", "done": 2, "total": 2},
    ]


def test_none_turns_progress_off(server) -> None:
    reports: List[Dict[str, Any]] = []
    with coinfolio.Engine(api={"base_url": server.base_url}) as engine:
        engine.set_progress(reports.append)
        engine.set_progress(None)
        engine.refresh()
    assert reports == []


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_callback_that_raises_does_not_stop_the_refresh(server, capsys) -> None:
    def broken(progress: Dict[str, Any]) -> None:
        raise RuntimeError("broken callback")

    server.live()  # answers stamped now: a successful refresh is then not stale (as_of is the data's time)
    with coinfolio.Engine(api={"base_url": server.base_url}) as engine:
        engine.set_progress(broken)
        assert engine.refresh()["stale"] is False


def test_a_callback_may_query_the_engine(server, fixture_text) -> None:
    seen: List[int] = []
    with coinfolio.Engine(api={"base_url": server.base_url}) as engine:
        engine.load(fixture_text("markets.json"), fixture_text("global.json"))

        def on_progress(progress: Dict[str, Any]) -> None:
            seen.append(engine.coins(limit=1)["total"])

        engine.set_progress(on_progress)
        engine.refresh()
    assert seen and all(total > 0 for total in seen)


def test_set_progress_rejects_a_non_callable_and_a_closed_engine() -> None:
    engine = coinfolio.Engine()
    with pytest.raises(TypeError):
        engine.set_progress(42)  # type: ignore[arg-type]
    engine.close()
    with pytest.raises(InvalidArgument):
        engine.set_progress(None)


def test_the_callback_outlives_the_callers_reference(server) -> None:
    import gc

    reports: List[Dict[str, Any]] = []
    with coinfolio.Engine(api={"base_url": server.base_url}) as engine:
        engine.set_progress(lambda progress: reports.append(progress))
        gc.collect()
        engine.refresh()
        engine.set_progress(None)  # the earlier callback stays alive for a refresh still using it
        gc.collect()
        engine.refresh()
    assert [report["phase"] for report in reports] == ["markets", "markets", "global", "global"]
