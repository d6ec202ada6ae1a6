"""A progress callback calling back into its own engine (SPEC §15): work that would wait for the
work calling the callback is refused with InvalidArgument (details.reason "reentrant"), never a
hang or a crash of the host; close() from a callback closes the engine when the call returns."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

import coinfolio
from coinfolio import InvalidArgument


def test_a_chart_callback_asking_for_the_same_chart_is_refused(server) -> None:
    # Before: the callback waited for the download it was reporting on, forever.
    outcomes: List[str] = []
    with coinfolio.Engine(api={"base_url": server.base_url, "max_retries": 0}) as engine:

        def on_progress(progress: Dict[str, Any]) -> None:
            try:
                engine.chart("bitcoin")
                outcomes.append("answered")
            except InvalidArgument as error:
                outcomes.append(f"{progress['done']}: {error.details.get('reason')}")

        engine.set_progress(on_progress)
        assert engine.chart("bitcoin")["summary"]["last"] == 103500.75
        assert outcomes == ["0: reentrant", "1: reentrant"]
        assert engine.chart("bitcoin")["summary"]["last"] == 103500.75  # cached: no report
        assert outcomes == ["0: reentrant", "1: reentrant"]


def test_refresh_work_from_a_refresh_callback_is_refused(server, fixture_text) -> None:
    # Before: the host process stopped ("Recursive call to lock Mutex").
    outcomes: List[str] = []
    with coinfolio.Engine(api={"base_url": server.base_url, "max_retries": 0}) as engine:
        engine.load(fixture_text("markets.json"))
        engine.set_holding("bitcoin", 1.0)

        def on_progress(progress: Dict[str, Any]) -> None:
            if progress != {"phase": "global", "done": 0, "total": 1}:
                return
            for work in (engine.refresh_prices, engine.refresh, lambda: engine.load(fixture_text("markets.json"))):
                try:
                    work()
                    outcomes.append("answered")
                except InvalidArgument as error:
                    outcomes.append(str(error.details.get("reason")))

        engine.set_progress(on_progress)
        assert engine.refresh()["coins"] == 12
        assert outcomes == ["reentrant", "reentrant", "reentrant"]
        engine.set_progress(None)
        assert engine.refresh_prices()["coins"] == 1


def test_close_from_a_callback_closes_when_the_call_returns(server) -> None:
    # Before: close() waited for the refresh that was calling it, forever.
    engine = coinfolio.Engine(api={"base_url": server.base_url, "max_retries": 0})
    phases: List[str] = []

    def on_progress(progress: Dict[str, Any]) -> None:
        phases.append(progress["phase"])
        engine.close()

    engine.set_progress(on_progress)
    assert engine.refresh()["coins"] == 12
    assert phases == ["markets", "markets", "global", "global"]
    assert engine.closed
    with pytest.raises(InvalidArgument):
        engine.coins()


def test_setting_the_same_callback_again_keeps_one_relay(server) -> None:
    # Before: each set_progress kept a new ctypes relay for the engine's life (8356 of them after
    # a loop toggling one callback during 20 refreshes).
    class Counter:
        calls = 0

        def on_progress(self, progress: Dict[str, Any]) -> None:
            self.calls += 1

    counter = Counter()
    with coinfolio.Engine(api={"base_url": server.base_url, "max_retries": 0}) as engine:
        for _ in range(100):
            engine.set_progress(counter.on_progress)
            engine.set_progress(None)
        engine.set_progress(counter.on_progress)
        engine.refresh()
        assert len(engine._progress_callbacks) == 1
        assert counter.calls == 4
