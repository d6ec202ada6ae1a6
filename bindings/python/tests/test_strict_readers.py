"""One strict JSON reader through the Python binding (issue 23 §5, issue 31 finding 6): the chart
reader and the transaction reader refuse a lone surrogate, a number beyond ±1.8e308 and nesting
past 512 in members they do not read; a key given twice reads as its later member; a leap second
in a timestamp is read."""
from __future__ import annotations

from typing import Any

import pytest

import coinfolio
from coinfolio import InvalidArgument, Reason, _ffi

DEEP = "[" * 513 + "]" * 513


def add_raw(engine: coinfolio.Engine, text: str) -> Any:
    """cf_engine_add_transaction with JSON text as a C host would send it (Engine.add_transaction
    writes its own JSON, which never holds these faults)."""
    with engine._borrow() as pointer:
        return _ffi.call_json(_ffi.lib.cf_engine_add_transaction, pointer, text.encode("utf-8"))


@pytest.mark.parametrize(
    "body, reason",
    [
        ('{"note":"\\udc00","prices":[[1,2]]}', Reason.LONE_SURROGATE),
        ('{"note":1e400,"prices":[[1,2]]}', Reason.NUMBER_OUT_OF_RANGE),
        ('{"prices":[[1,-2e308]]}', Reason.NUMBER_OUT_OF_RANGE),
        ('{"extra":' + DEEP + ',"prices":[]}', Reason.TOO_DEEP),
    ],
)
def test_the_chart_reader_refuses_what_the_others_refuse(body: str, reason: Reason) -> None:
    with pytest.raises(InvalidArgument) as info:
        coinfolio.decode_market_chart(body)
    assert info.value.reason is reason
    assert isinstance(info.value.details["offset"], int)
    chart = body.replace('"prices"', '"points"')
    with pytest.raises(InvalidArgument) as info:
        coinfolio.chart_svg(chart)
    assert info.value.reason is reason


def test_the_transaction_reader_refuses_what_the_others_refuse() -> None:
    with coinfolio.Engine() as engine:
        base = '"coin_id":"bitcoin","kind":"buy","amount":1,"price":1'
        for extra, reason in [
            ('"x":1e400', Reason.NUMBER_OUT_OF_RANGE),
            ('"x":[{"y":-1e309}]', Reason.NUMBER_OUT_OF_RANGE),
            ('"x":"\\udfff"', Reason.LONE_SURROGATE),
            ('"x":' + DEEP, Reason.TOO_DEEP),
        ]:
            with pytest.raises(InvalidArgument) as info:
                add_raw(engine, "{" + base + "," + extra + "}")
            assert info.value.reason is reason, extra
        assert engine.transactions()["total"] == 0


def test_a_later_member_wins_and_a_leap_second_is_read() -> None:
    chart = coinfolio.decode_market_chart('{"prices":[[1,1]],"prices":[[2,2]]}')
    assert chart["prices"] == [[2, 2]]
    with coinfolio.Engine() as engine:
        stored = add_raw(engine, 
            '{"coin_id":"bitcoin","kind":"transfer_in","amount":1,"amount":"2.5","timestamp":"2016-12-31T15:59:60-08:00"}'
        )
        assert float(stored["amount"]) == 2.5
        assert stored["timestamp"] == "2016-12-31T23:59:59.999Z"
