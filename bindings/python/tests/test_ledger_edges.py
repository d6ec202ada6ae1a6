"""Issue 31's ledger messages through the ABI, on SQLite and in the PostgreSQL pass: a note sent as
null comes back null, and a CSV number with a comma is refused saying what the comma is."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import pytest

import coinfolio
from coinfolio import InvalidArgument

HEADER = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id"


def test_a_null_note_comes_back_null_and_an_empty_one_empty(db_path: Path) -> None:
    sent: list[tuple[dict[str, Any], Optional[str]]] = [
        ({"timestamp": "2024-01-01", "note": None}, None),
        ({"timestamp": "2024-01-02", "note": ""}, ""),
        ({"timestamp": "2024-01-03"}, None),
        ({"timestamp": "2024-01-04", "note": "cold wallet"}, "cold wallet"),
    ]
    with coinfolio.Engine(database=db_path) as engine:
        for fields, note in sent:
            added = engine.add_transaction("bitcoin", "transfer_in", 1, **fields)
            assert added["note"] == note
    with coinfolio.Engine(database=db_path) as engine:
        listed = sorted(engine.transactions()["transactions"], key=lambda t: t["timestamp"])
    assert [t["note"] for t in listed] == [note for _, note in sent]


@pytest.mark.parametrize(
    "cell, reason, message",
    [
        ('"11,426.20"', "thousands_separator",
         'line 3, column price: "11,426.20" has a thousands separator: write numbers without one (11426.20)'),
        ('"1,5"', "decimal_comma", 'line 3, column price: "1,5" has a decimal comma: the decimal mark is a point (1.5)'),
        ('"1,234"', "ambiguous_comma",
         'line 3, column price: "1,234" has a comma: write 1234 if it separates thousands, or 1.234 if it is a decimal comma'),
    ],
)
def test_a_csv_number_with_a_comma_says_what_the_comma_is(db_path: Path, cell: str, reason: str, message: str) -> None:
    csv = f"{HEADER}\n2024-02-01,main,ethereum,buy,1,2,0,,a\n2024-02-02,main,bitcoin,buy,1,{cell},0,,b\n"
    with coinfolio.Engine(database=db_path) as engine:
        with pytest.raises(InvalidArgument) as info:
            engine.import_csv(csv)
        assert info.value.message == message
        assert info.value.details == {"line": 3, "column": "price", "reason": reason}
        assert engine.transactions()["total"] == 0


@pytest.mark.parametrize(
    "row, details, message",
    [
        # SPEC §12: every import error names its line and column (the header name); a CSV syntax
        # error also its 0-based field.
        ('2024-02-02,main,bitcoin,buy,1,2,0,"open note', {"line": 3, "column": "note", "field_index": 7},
         "line 3, column note: a quoted field is not closed"),
        ('2024-02-02,main,bitcoin,"buy"x,1,2,0,,b', {"line": 3, "column": "kind", "field_index": 3},
         "line 3, column kind: text after a closing quote"),
        ("2024-02-02,main,bitcoin,buy,1,2", {"line": 3, "column": "fee"},
         "line 3, column fee: the row has 6 fields and the header 9 (the separator is a comma and the decimal mark a point)"),
        ("2024-02-02,main,bitcoin,buy,1,2,0,,b,extra", {"line": 3},
         "line 3: the row has 10 fields and the header 9 (the separator is a comma and the decimal mark a point)"),
    ],
)
def test_a_broken_csv_row_names_its_line_and_column(db_path: Path, row: str, details: dict[str, Any], message: str) -> None:
    csv = f"{HEADER}\n2024-02-01,main,ethereum,buy,1,2,0,,a\n{row}\n"
    with coinfolio.Engine(database=db_path) as engine:
        with pytest.raises(InvalidArgument) as info:
            engine.import_csv(csv)
        assert info.value.message == message
        assert info.value.details == details
        assert engine.transactions()["total"] == 0
