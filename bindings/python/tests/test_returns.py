"""SPEC §19 through the ABI, on SQLite and (make test-postgres) PostgreSQL: realized rows with
holding periods and UK share pooling, performance with its flows, missing prices listed, CSV in
Form 8949-like columns, every answer its TypedDict, bad options refused. The cases are those of
Tests/CoinfolioTests/RealizedTests.swift, UKSharePoolingTests.swift and PerformanceTests.swift,
worked by hand from HMRC's Cryptoassets Manual (CRYPTO22250 onwards) and IRS Publication 544 /
Form 8949's instructions."""

from __future__ import annotations

import datetime
from decimal import Decimal
from pathlib import Path
from typing import Iterator

import pytest

import coinfolio
from conftest import cents
from coinfolio import answers


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[coinfolio.Engine]:
    with coinfolio.Engine(database=str(tmp_path / "returns.sqlite")) as opened:
        yield opened


# --- realized ------------------------------------------------------------------------------------


def test_the_uk_example(engine: coinfolio.Engine) -> None:
    """buy 1000 @ 4 fee 150 → pool 1000 costing 4,150; sell 700 @ 4.80 fee 100; buy 100 @ 4.50
    within 30 days: 100 match it (cost 450, proceeds 465.71, gain 15.71), 600 come from the pool
    (cost 2,490, proceeds 2,794.29, gain 304.29); gain 320.00; the pool keeps 400 costing 1,660."""
    engine.add_transaction("token", "buy", 1000, price=4, fee=150, timestamp="2024-01-01")
    engine.add_transaction("token", "sell", 700, price="4.80", fee=100, timestamp="2024-03-01")
    engine.add_transaction("token", "buy", 100, price="4.50", timestamp="2024-03-10")
    report = engine.realized(method="uk")
    rows = report["rows"]
    assert [r["amount"] for r in rows] == [Decimal("100"), Decimal("600")]
    assert [r["cost"] for r in rows] == [Decimal("450"), Decimal("2490")]
    assert [cents(r["proceeds"]) for r in rows] == [Decimal("465.71"), Decimal("2794.29")]
    assert [cents(r["gain"]) for r in rows] == [Decimal("15.71"), Decimal("304.29")]
    assert [r["acquired_at"] for r in rows] == ["2024-03-10T00:00:00Z", "2024-01-01T00:00:00Z"]
    assert report["totals"]["gain"] == Decimal("320")
    assert report["totals"]["proceeds"] == Decimal("3260")
    assert report["method"] == "uk"
    pnl = engine.pnl(method="uk")["coins"][0]
    assert pnl["realized_pnl"] == Decimal("320")
    assert pnl["amount"] == Decimal("400") and pnl["cost_basis"] == Decimal("1660")


def test_hmrc_crypto22253_thirty_days(engine: coinfolio.Engine) -> None:
    """CRYPTO22253 (Rachel): sells of 31 March and 20 April match the buys of 21 and 28 April
    and 1 May, the earlier disposal first; 1 May is day 31 of the first: gains £165 and £20."""
    engine.add_transaction("token", "buy", 2000, price="0.5", timestamp="2024-01-01")
    engine.add_transaction("token", "sell", 1000, price="0.4", timestamp="2024-03-31")
    engine.add_transaction("token", "sell", 500, price="0.3", timestamp="2024-04-20")
    engine.add_transaction("token", "buy", 700, price="0.25", timestamp="2024-04-21")
    engine.add_transaction("token", "buy", 500, price="0.2", timestamp="2024-04-28")
    engine.add_transaction("token", "buy", 500, price="0.3", timestamp="2024-05-01")
    rows = engine.realized(method="uk")["rows"]
    assert [(r["amount"], r["cost"], r["acquired_at"][:10]) for r in rows] == [
        (Decimal("700"), Decimal("175"), "2024-04-21"),
        (Decimal("300"), Decimal("60"), "2024-04-28"),
        (Decimal("200"), Decimal("40"), "2024-04-28"),
        (Decimal("300"), Decimal("90"), "2024-05-01"),
    ]
    assert engine.realized(method="uk")["totals"]["gain"] == Decimal("185")
    pnl = engine.pnl(method="uk")["coins"][0]
    assert pnl["amount"] == Decimal("2200") and pnl["cost_basis"] == Decimal("1060")


def test_the_leap_day_lot(engine: coinfolio.Engine) -> None:
    """Bought 2020-02-29, one year reaches 2021-02-28: sold then taxable, on 2021-03-01 and
    2021-03-02 tax-free with tax_free_after_years 1; short, long, long; 365, 366, 367 days."""
    engine.add_transaction("bitcoin", "buy", 3, price=100, timestamp="2020-02-29T12:00:00Z")
    for date in ("2021-02-28", "2021-03-01", "2021-03-02"):
        engine.add_transaction("bitcoin", "sell", 1, price=150, timestamp=f"{date}T12:00:00Z")
    report = engine.realized(tax_free_after_years=1)
    assert [r["tax_free"] for r in report["rows"]] == [False, True, True]
    assert [r["term"] for r in report["rows"]] == ["short", "long", "long"]
    assert [r["holding_days"] for r in report["rows"]] == [365, 366, 367]
    assert report["totals"]["taxable_gain"] == Decimal("50")
    assert report["totals"]["long_term_gain"] == Decimal("100")
    assert [r["tax_free"] for r in engine.realized()["rows"]] == [None, None, None]


@pytest.mark.parametrize(
    ("bought", "sold", "term"),
    [
        ("2023-03-10", "2024-03-10", "short"),  # a leap day in between
        ("2023-03-10", "2024-03-11", "long"),
        ("2021-03-10", "2022-03-10", "short"),  # none
        ("2021-03-10", "2022-03-11", "long"),
    ],
)
def test_term_short_on_the_anniversary_long_the_day_after(engine: coinfolio.Engine, bought: str, sold: str, term: str) -> None:
    engine.add_transaction("bitcoin", "buy", 1, price=1, timestamp=bought + "T23:00:00Z")
    engine.add_transaction("bitcoin", "sell", 1, price=2, timestamp=sold + "T01:00:00Z")
    assert [r["term"] for r in engine.realized()["rows"]] == [term]


def test_a_moved_lot_keeps_its_first_acquisition_time(engine: coinfolio.Engine) -> None:
    engine.create_portfolio("cold")
    engine.add_transaction("bitcoin", "buy", 2, price=100, timestamp="2023-03-10")
    engine.add_transaction("bitcoin", "buy", 1, price=300, timestamp="2023-06-01")
    engine.move("bitcoin", "1.5", "main", "cold", received_amount="1.4", timestamp="2024-01-04")
    engine.add_transaction("bitcoin", "sell", "1.4", price=400, timestamp="2024-03-11", portfolio="cold")
    rows = engine.realized(portfolio="cold")["rows"]
    assert [(r["acquired_at"], r["cost"], r["gain"], r["term"]) for r in rows] == [
        ("2023-03-10T00:00:00Z", Decimal("150"), Decimal("410"), "long")
    ]
    assert [r["portfolio"] for r in engine.realized(all_portfolios=True)["rows"]] == ["cold"]


def test_a_fee_split_by_units_and_unknown_costs(engine: coinfolio.Engine) -> None:
    """Buy 1 @ 100, buy 3 @ 200, sell 4 @ 300 fee 12: proceeds 1,188 split 297 and 891. Units
    transferred in: cost and gain None, never 0."""
    engine.add_transaction("bitcoin", "transfer_in", "0.5", timestamp="2023-01-01")
    engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp="2024-01-01")
    engine.add_transaction("bitcoin", "buy", 3, price=200, timestamp="2024-01-02")
    engine.add_transaction("bitcoin", "sell", "0.5", price=300, timestamp="2024-01-05")
    engine.add_transaction("bitcoin", "sell", 4, price=300, fee=12, timestamp="2024-02-01")
    engine.add_transaction("ethereum", "income", "0.5", price=2000, income_type="staking", timestamp="2024-03-01")
    report = engine.realized(year=2024)
    assert [r["proceeds"] for r in report["rows"]] == [Decimal("150"), Decimal("297"), Decimal("891")]
    assert [r["cost"] for r in report["rows"]] == [None, Decimal("100"), Decimal("600")]
    assert [r["gain"] for r in report["rows"]] == [None, Decimal("197"), Decimal("291")]
    assert report["totals"]["coverage"] == pytest.approx(2 / 3)
    assert [(i["income_type"], i["value"]) for i in report["income"]] == [("staking", Decimal("1000"))]
    assert report["income_total"] == Decimal("1000")
    assert engine.realized_csv(year=2024) == (
        "description,acquired,disposed,proceeds,cost,gain,term\r\n0.5 bitcoin,2023-01-01,2024-01-05,150,,,long\r\n"
        "1 bitcoin,2024-01-01,2024-02-01,297,100,197,short\r\n3 bitcoin,2024-01-02,2024-02-01,891,600,291,short\r\n"
    )
    assert engine.realized(year=2025)["rows"] == []


def test_realized_answers_are_their_typeddicts(engine: coinfolio.Engine) -> None:
    from test_typing import conform

    engine.add_transaction("bitcoin", "transfer_in", 1, timestamp="2023-01-01")
    engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp="2024-01-01")
    engine.add_transaction("bitcoin", "sell", 2, timestamp="2024-01-05")  # pending price
    engine.add_transaction("ethereum", "income", 1, income_type="airdrop", timestamp="2024-03-01")
    for method in ("fifo", "lifo", "hifo", "lofo", "average", "uk"):
        conform(engine.realized(method=method, tax_free_after_years=1), answers.RealizedAnswer)
    conform(engine.performance(range="7d", benchmark="bitcoin"), answers.PerformanceAnswer)
    conform(engine.performance(range=("2023-12-30", "2024-01-10"), all_portfolios=True), answers.PerformanceAnswer)


# --- performance ---------------------------------------------------------------------------------


def test_the_spec_example_from_manual_points(engine: coinfolio.Engine) -> None:
    """SPEC §19's example, its prices the owner's manual points at each UTC day's 00:00 of 2023:
    100 units bought at 1 on day 0, the value still 100 on day 151 when 100 more come in at 1,
    the price 1.1 on day 364 (220): twr 10.00, mwr 12.77, gain 20, roi 10."""
    first = datetime.datetime(2023, 1, 1, tzinfo=datetime.timezone.utc)
    for n in range(365):
        when = (first + datetime.timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%SZ")
        engine.set_price("x", "1.1" if n == 364 else "1", timestamp=when)
        if n in (0, 151):
            engine.add_transaction("x", "buy", 100, price=1, timestamp=when)
    answer = engine.performance(range=("2023-01-01", "2023-12-31"))
    assert (answer["start_value"], answer["end_value"], answer["net_flows"], answer["gain"]) == (0, 220, 200, 20)
    assert answer["roi"] == pytest.approx(10, abs=1e-9)
    assert round(answer["twr"] or 0, 2) == 10.00
    assert round(answer["mwr"] or 0, 2) == 12.77
    assert (answer["coverage"], len(answer["points"])) == (1, 365)


def test_performance_asked_again_sees_points_stored_since(engine: coinfolio.Engine, tmp_path: Path) -> None:
    """The same range asked again gives the same values, and every point stored since: by
    another engine on the same database, then by this one (on SQLite the points read are kept
    until any connection changes the database). 1 unit held from 2024-01-01 12:00; manual points
    at 00:00 of Jan 2, 3, 4: 100, 200, 300; then Jan 3 set to 250 elsewhere, Jan 4 to 350 here."""
    engine.add_transaction("x", "buy", 1, price=90, timestamp="2024-01-01T12:00:00Z")
    with coinfolio.Engine(database=str(tmp_path / "returns.sqlite")) as other:
        for day, price in (("02", "100"), ("03", "200"), ("04", "300")):
            other.set_price("x", price, timestamp=f"2024-01-{day}T00:00:00Z")

        def values() -> list[object]:
            return [point[1] for point in engine.performance(range=("2024-01-02", "2024-01-04"))["points"]]

        assert values() == [Decimal("100"), Decimal("200"), Decimal("300")]
        assert values() == [Decimal("100"), Decimal("200"), Decimal("300")]
        other.set_price("x", "250", timestamp="2024-01-03T00:00:00Z")
        assert values() == [Decimal("100"), Decimal("250"), Decimal("300")]
    engine.set_price("x", "350", timestamp="2024-01-04T00:00:00Z")
    assert values() == [Decimal("100"), Decimal("250"), Decimal("350")]


@pytest.mark.sqlite_only
def test_performance_kept_points_follow_every_other_writer(engine: coinfolio.Engine, tmp_path: Path) -> None:
    """The points kept between two performance answers (SQLite) never outlive a change made
    elsewhere: another process's update, delete and insert, a write rolled back, VACUUM, a
    restore through SQLite's backup API, or this engine's own delete. After each the answer is
    a fresh engine's on the same file."""
    import sqlite3
    import subprocess
    import sys

    path = str(tmp_path / "returns.sqlite")
    engine.add_transaction("x", "buy", 1, price=90, timestamp="2024-01-01T12:00:00Z")
    for day, price in (("02", "100"), ("03", "200"), ("04", "300")):
        engine.set_price("x", price, timestamp=f"2024-01-{day}T00:00:00Z")
    jan = {"02": 1704153600000, "03": 1704240000000, "04": 1704326400000}

    def values(on: coinfolio.Engine) -> list[object]:
        return [point[1] for point in on.performance(range=("2024-01-02", "2024-01-04"))["points"]]

    def fresh() -> list[object]:
        with coinfolio.Engine(database=path) as other:
            return values(other)

    def elsewhere(*statements: str) -> None:
        code = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nfor s in sys.argv[2:]: c.execute(s)\nc.commit()"
        subprocess.run([sys.executable, "-c", code, path, *statements], check=True, timeout=60)

    assert values(engine) == values(engine) == fresh() == [Decimal("100"), Decimal("200"), Decimal("300")]
    backup = sqlite3.connect(str(tmp_path / "backup.sqlite"))
    with sqlite3.connect(path) as source:
        source.backup(backup)
    elsewhere(f"UPDATE manual_price SET price = '111' WHERE t_ms = {jan['02']}")
    assert values(engine) == fresh() == [Decimal("111"), Decimal("200"), Decimal("300")]
    elsewhere(
        f"DELETE FROM manual_price WHERE t_ms = {jan['03']}", f"INSERT INTO price_point VALUES ('x', 'usd', {jan['03']}, 222.0)"
    )
    assert values(engine) == fresh() == [Decimal("111"), Decimal("222"), Decimal("300")]
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("BEGIN")
    connection.execute(f"UPDATE price_point SET price = 5 WHERE t_ms = {jan['03']}")
    connection.execute("ROLLBACK")
    connection.execute("VACUUM")
    assert values(engine) == fresh() == [Decimal("111"), Decimal("222"), Decimal("300")]
    backup.backup(connection)  # the restore: the file as it was before the first update
    connection.close()
    backup.close()
    assert values(engine) == fresh() == [Decimal("100"), Decimal("200"), Decimal("300")]
    engine.delete_transaction(engine.transactions()["transactions"][0]["id"])
    assert values(engine) == fresh() == [Decimal("0"), Decimal("0"), Decimal("0")]


def test_performance_flows_and_missing_prices(engine: coinfolio.Engine) -> None:
    """Without stored price points the days between are missing (listed, never guessed); the
    last value of a range ending now is the snapshot's; a buy's flow is amount × price + fee."""
    three_days_ago = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=3)).isoformat()
    engine.add_transaction("bitcoin", "buy", 2, price=100, fee=1, timestamp=three_days_ago)
    engine.load('[{"id":"bitcoin","symbol":"btc","name":"Bitcoin","current_price":150}]')
    report = engine.performance(range="7d", benchmark="bitcoin")
    assert report["start_value"] == Decimal("0")
    assert report["end_value"] == Decimal("300")
    assert report["net_flows"] == Decimal("201")
    assert report["gain"] == Decimal("99")
    assert report["coverage"] < 1
    assert report["missing"] and all(day["coin_ids"] == ["bitcoin"] for day in report["missing"])
    assert report["benchmark"] == {"coin_id": "bitcoin", "change": None}
    points = report["points"]
    assert isinstance(points[0][0], int) and points[0][1] == Decimal("0") and points[-1][1] == Decimal("300")
    assert points[-1][2] == Decimal("201")


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"range": "2y"}, "range"),
        ({"range": ("2024-02-01", "2024-01-01")}, "range.to"),
        ({"range": ("yesterday", None)}, "range.from"),
        ({"benchmark": "a/b"}, "benchmark"),
    ],
)
def test_performance_refuses_bad_options(engine: coinfolio.Engine, options: dict, field: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.performance(**options)
    assert caught.value.details["field"] == field


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"method": "fofi"}, "method"),
        ({"year": 1969}, "year"),
        ({"year": 2024, "from_time": "2024-01-01"}, "year"),
        ({"from_time": "2024-02-01", "to_time": "2024-01-01"}, "to"),
        ({"long_term_after_years": -1}, "long_term_after_years"),
        ({"tax_free_after_years": 1001}, "tax_free_after_years"),
    ],
)
def test_realized_refuses_bad_options(engine: coinfolio.Engine, options: dict, field: str) -> None:  # type: ignore[type-arg]
    engine.add_transaction("bitcoin", "buy", 1, price=1, timestamp="2024-01-01")
    before = engine.export_csv(all_portfolios=True)
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        engine.realized(**options)
    assert caught.value.details["field"] == field
    assert engine.export_csv(all_portfolios=True) == before


def test_unknown_portfolios_and_mixed_currencies(engine: coinfolio.Engine) -> None:
    with pytest.raises(coinfolio.NotFound):
        engine.realized(portfolio="nowhere")
    with pytest.raises(coinfolio.NotFound):
        engine.performance(portfolio="nowhere")
    engine.create_portfolio("euro", vs_currency="eur")
    for call in (lambda: engine.realized(all_portfolios=True), lambda: engine.performance(all_portfolios=True)):
        with pytest.raises(coinfolio.InvalidArgument) as caught:
            call()
        assert caught.value.reason is coinfolio.Reason.CURRENCY
