"""SPEC §16 through the ABI, on SQLite and (make test-postgres) PostgreSQL: fees in coins, trades,
moves, income, hifo and lofo, groups, every bad input refused with the ledger unchanged, exact
derived money as Decimal (issue 31, issue 23 §6), the long CSV header."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

import coinfolio
from coinfolio import answers

from conftest import ledger_text


@pytest.fixture
def engine(ledger_engine: coinfolio.Engine) -> coinfolio.Engine:
    return ledger_engine


everything = ledger_text


def coin(report: answers.PnLAnswer, coin_id: str) -> answers.CoinPnL:
    return next(c for c in report["coins"] if c["coin_id"] == coin_id)


def test_a_fee_in_bnb(engine: coinfolio.Engine) -> None:
    """buy 1 BNB @ 300 at t1; at t2 buy 1 BTC @ 40,000 with fee 0.01 BNB at 310 → the BTC lot
    costs 40,003.10; 0.99 BNB left; realized on the fee 0.10; the BTC coin's fees 3.10."""
    engine.add_transaction("binancecoin", "buy", 1, price=300, timestamp="2024-01-01")
    parent = engine.add_transaction(
        "bitcoin", "buy", 1, price=40000, fee=Decimal("0.01"), fee_coin_id="binancecoin", fee_price=310,
        timestamp="2024-01-02",
    )
    assert parent["fee"] == Decimal("0.01") and parent["group_id"] is not None
    rows = engine.transactions(group_id=parent["group_id"])["transactions"]
    assert [r["kind"] for r in rows] == ["buy", "fee"]
    assert rows[1]["coin_id"] == "binancecoin" and rows[1]["amount"] == Decimal("0.01") and rows[1]["price"] == Decimal("310")
    report = engine.pnl()
    assert coin(report, "bitcoin")["cost_basis"] == Decimal("40003.10")
    assert coin(report, "bitcoin")["fees"] == Decimal("3.10")
    assert coin(report, "binancecoin")["amount"] == Decimal("0.99")
    assert coin(report, "binancecoin")["realized_pnl"] == Decimal("0.10")


def test_a_swap(engine: coinfolio.Engine) -> None:
    """0.5 BTC → 10 ETH, value 30,000 → sell 0.5 bitcoin @ 60,000 and buy 10 ethereum @ 3,000."""
    engine.add_transaction("bitcoin", "buy", 1, price=20000, timestamp="2024-01-01")
    group = engine.add_trade(("bitcoin", Decimal("0.5")), ("ethereum", 10), value=30000, timestamp="2024-01-05")
    legs = group["transactions"]
    assert [(t["kind"], t["coin_id"], t["amount"], t["price"]) for t in legs] == [
        ("sell", "bitcoin", Decimal("0.5"), Decimal("60000")),
        ("buy", "ethereum", Decimal("10"), Decimal("3000")),
    ]
    assert {t["group_id"] for t in legs} == {group["group_id"]}
    pending = engine.add_trade(("ethereum", 1), ("solana", 20))
    assert [t["price"] for t in pending["transactions"]] == [None, None]
    assert [t["price_source"] for t in pending["transactions"]] == ["pending", "pending"]


def test_a_move_between_portfolios(engine: coinfolio.Engine) -> None:
    """main: buy 2 BTC @ 100 (t1), buy 1 @ 300 (t2); move 1.5 main → cold, received 1.4 (t3); cold
    sells 1.4 @ 400 (t4). fifo: cold realizes 410, main keeps cost 350; hifo: 210 and 150."""
    engine.create_portfolio("cold")
    engine.add_transaction("bitcoin", "buy", 2, price=100, timestamp="2024-01-01")
    engine.add_transaction("bitcoin", "buy", 1, price=300, timestamp="2024-01-02")
    group = engine.move("bitcoin", "1.5", "main", "cold", received_amount="1.4", timestamp="2024-01-03")
    assert [(t["portfolio"], t["kind"]) for t in group["transactions"]] == [("main", "transfer_out"), ("cold", "transfer_in")]
    engine.add_transaction("bitcoin", "sell", "1.4", price=400, timestamp="2024-01-04", portfolio="cold")
    assert coin(engine.pnl("cold", "fifo"), "bitcoin")["realized_pnl"] == Decimal("410")
    assert coin(engine.pnl("main", "fifo"), "bitcoin")["cost_basis"] == Decimal("350")
    assert coin(engine.pnl("cold", "hifo"), "bitcoin")["realized_pnl"] == Decimal("210")
    assert coin(engine.pnl("main", "hifo"), "bitcoin")["cost_basis"] == Decimal("150")


def test_deleting_a_portfolio_takes_its_moves_other_sides_or_nothing(engine: coinfolio.Engine) -> None:
    """SPEC §16: deleting any row of a group deletes the whole group, never-negative checked for the
    whole change; a forced portfolio delete deletes its rows, so a move's other side goes too (found
    by stop 58's breaker: the other side stayed alone in its group). main buys 2 @ 100, moves 1 to
    cold, cold sells it @ 300 (realized 200). Deleting main would leave cold's sell short by 1:
    refused, nothing changed. Deleting cold takes main's transfer_out: main holds 2 again, cost 200."""
    engine.create_portfolio("cold")
    engine.add_transaction("bitcoin", "buy", 2, price=100, timestamp="2024-01-01")
    group = engine.move("bitcoin", 1, "main", "cold", timestamp="2024-02-01")
    engine.add_transaction("bitcoin", "sell", 1, price=300, timestamp="2024-03-01", portfolio="cold")
    before = everything(engine)
    with pytest.raises(coinfolio.InvalidArgument) as refused:
        engine.delete_portfolio("main", force=True)
    assert (refused.value.details["coin_id"], refused.value.details["short_by"]) == ("bitcoin", 1)
    assert everything(engine) == before
    assert coin(engine.pnl("cold"), "bitcoin")["realized_pnl"] == Decimal("200")
    engine.delete_portfolio("cold", force=True)
    assert engine.transactions(group_id=group["group_id"])["transactions"] == []
    main = coin(engine.pnl("main"), "bitcoin")
    assert (main["amount"], main["cost_basis"]) == (Decimal("2"), Decimal("200"))
    assert [p["name"] for p in engine.portfolios()] == ["main"]


def test_the_four_lot_orders(engine: coinfolio.Engine) -> None:
    """Lots 2 @ 3 then 5 @ 1; sell 1 @ 4 → realized fifo 1, lifo 3, hifo 1, lofo 3."""
    engine.add_transaction("x-coin", "buy", 2, price=3, timestamp="2024-01-01")
    engine.add_transaction("x-coin", "buy", 5, price=1, timestamp="2024-01-02")
    engine.add_transaction("x-coin", "sell", 1, price=4, timestamp="2024-01-03")
    for method, realized in (("fifo", "1"), ("lifo", "3"), ("hifo", "1"), ("lofo", "3")):
        assert coin(engine.pnl(method=method), "x-coin")["realized_pnl"] == Decimal(realized), method


def test_deleting_one_leg_deletes_the_group_and_a_short_group_is_refused_whole(engine: coinfolio.Engine) -> None:
    engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp="2024-01-01")
    engine.add_transaction("binancecoin", "buy", 1, price=300, timestamp="2024-01-01")
    before = everything(engine)
    group = engine.add_trade(
        ("bitcoin", 1), ("ethereum", 20), value=60000, fee="0.1", fee_coin_id="binancecoin", timestamp="2024-01-02"
    )
    assert [t["kind"] for t in group["transactions"]] == ["sell", "buy", "fee"]
    engine.delete_transaction(group["transactions"][1]["id"])
    assert everything(engine) == before
    with pytest.raises(coinfolio.InvalidArgument) as refused:
        engine.add_trade(("bitcoin", 1), ("ethereum", 1), value=1, fee=2, fee_coin_id="binancecoin", timestamp="2024-01-02")
    assert refused.value.details["coin_id"] == "binancecoin"
    assert refused.value.details["short_by"] == 1
    assert everything(engine) == before


BAD: Dict[str, Callable[[coinfolio.Engine], Any]] = {
    "income_type": lambda e: e.add_transaction("ethereum", "income", 1, price=1),
    "income_type ": lambda e: e.add_transaction("ethereum", "income", 1, price=1, income_type="lottery"),
    "fee_price": lambda e: e.add_transaction("bitcoin", "buy", 1, price=1, fee=1, fee_coin_id="binancecoin", fee_price=-1),
    "fee_coin_id": lambda e: e.add_transaction("bitcoin", "buy", 1, price=1, fee=1, fee_coin_id="not/an id"),
    "received.coin_id": lambda e: e.add_trade(("bitcoin", 1), ("usd", 100)),
    "received.coin_id ": lambda e: e.add_trade(("bitcoin", 1), ("bitcoin", 1)),
    "received_amount": lambda e: e.move("bitcoin", 1, "main", "cold", received_amount="1.5"),
}


@pytest.mark.parametrize("field", sorted(BAD))
def test_bad_inputs_name_their_field_and_change_nothing(engine: coinfolio.Engine, field: str) -> None:
    engine.create_portfolio("cold")
    engine.add_transaction("bitcoin", "buy", 2, price=100, timestamp="2024-01-01")
    before = everything(engine)
    with pytest.raises(coinfolio.InvalidArgument) as refused:
        BAD[field](engine)
    assert refused.value.details["field"] == field.strip()
    assert everything(engine) == before


def test_a_move_between_currencies_is_refused(engine: coinfolio.Engine) -> None:
    engine.create_portfolio("euro", vs_currency="eur")
    engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp="2024-01-01")
    before = everything(engine)
    with pytest.raises(coinfolio.InvalidArgument) as refused:
        engine.move("bitcoin", 1, "main", "euro")
    assert refused.value.details["reason"] == "currency"
    assert everything(engine) == before


def test_exact_money_comes_back_as_decimal(engine: coinfolio.Engine) -> None:
    """Issue 31 and issue 23 §6: 1e-18 units at 0.000002 valued at 0.000004 → cost basis 2e-24,
    value 4e-24, unrealized 2e-24; two buys of 1 at 8e19 with fee 8e19 → cost basis 3.2e20;
    amounts as they went in; percentages and coverages stay floats."""
    engine.load('[{"id":"dust","symbol":"d","name":"D","current_price":0.000004}]')
    stored = engine.add_transaction("dust", "buy", Decimal("0.000000000000000001"), price=Decimal("0.000002"))
    assert stored["amount"] == Decimal("1E-18") and isinstance(stored["amount"], Decimal)
    assert stored["price"] == Decimal("0.000002")
    for day in (1, 2):
        engine.add_transaction("huge", "buy", 1, price="80000000000000000000", fee="80000000000000000000",
                               timestamp=f"2024-01-0{day}")
    engine.add_transaction("ethereum", "income", 2, price=5, income_type="staking")
    engine.add_transaction("ethereum", "income", 1, income_type="airdrop")
    report = engine.pnl()
    dust = coin(report, "dust")
    assert (dust["cost_basis"], dust["current_value"], dust["unrealized_pnl"]) == (
        Decimal("2E-24"), Decimal("4E-24"), Decimal("2E-24"))
    # Other numbers stay JSON's floats and ints (never Decimal).
    assert not isinstance(dust["unrealized_pnl_percentage"], Decimal) and dust["unrealized_pnl_percentage"] == 100
    assert not isinstance(dust["cost_basis_coverage"], Decimal)
    assert coin(report, "huge")["cost_basis"] == Decimal("320000000000000000000")
    eth = coin(report, "ethereum")
    assert eth["income"] == Decimal("10") and eth["income_coverage"] == pytest.approx(2 / 3)
    assert report["totals"]["income"] == Decimal("10")
    assert isinstance(report["totals"]["realized_pnl"], Decimal)


def test_the_long_csv_header_round_trips(engine: coinfolio.Engine, tmp_path: Path) -> None:
    engine.create_portfolio("cold")
    engine.add_transaction("bitcoin", "buy", 2, price=100, timestamp="2024-01-01")
    engine.add_transaction("binancecoin", "buy", 1, price=300, timestamp="2024-01-01")
    engine.add_trade(("bitcoin", 1), ("ethereum", 20), value=60000, fee="0.01", fee_coin_id="binancecoin", fee_price=310,
                     timestamp="2024-01-02")
    engine.move("bitcoin", 1, "main", "cold", received_amount="0.9", timestamp="2024-01-03")
    engine.add_transaction("ethereum", "income", "0.5", income_type="staking", timestamp="2024-01-04")
    csv = everything(engine)
    assert csv.startswith(
        "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,fee_price,income_type,group_id\r\n")
    assert engine.import_csv(csv) == {"imported": 0, "skipped": 7}
    with coinfolio.Engine(database=str(tmp_path / "target.sqlite")) as target:
        assert target.import_csv(csv) == {"imported": 7, "skipped": 0}
        for portfolio in ("main", "cold"):
            for method in ("fifo", "lifo", "hifo", "lofo", "average"):
                assert target.pnl(portfolio, method) == engine.pnl(portfolio, method)


def test_ledger_history_answers_are_their_typeddicts(engine: coinfolio.Engine) -> None:
    from test_typing import conform

    engine.create_portfolio("cold")
    engine.add_transaction("bitcoin", "buy", 2, price=100, timestamp="2024-01-01")
    engine.add_transaction("tether", "buy", 5, price=1, timestamp="2024-01-01")
    conform(engine.add_transaction("bitcoin", "buy", 1, price=1, fee=1, fee_coin_id="tether"), answers.Transaction)
    conform(engine.add_trade(("bitcoin", 1), ("ethereum", 2), value=10), answers.TransactionGroup)
    conform(engine.move("bitcoin", "0.5", "main", "cold"), answers.TransactionGroup)
    conform(engine.add_transaction("ethereum", "income", 1, income_type="mining"), answers.Transaction)
    conform(engine.transactions(), answers.TransactionsAnswer)
    for method in ("fifo", "lifo", "hifo", "lofo", "average"):
        conform(engine.pnl(method=method), answers.PnLAnswer)


def test_exact_keys_are_the_typeddicts_decimal_fields() -> None:
    from typing import get_args, get_type_hints

    def holds_decimal(hint: Any) -> bool:
        """Decimal, or a Union or List of it (a TypedDict inside is a shape of its own)."""
        return hint is Decimal or any(holds_decimal(arg) for arg in get_args(hint))

    exact = set()
    shapes = (answers.Transaction, answers.CoinPnL, answers.PnLTotals, answers.RealizedRow, answers.RealizedTotals)
    for shape in shapes + (answers.IncomeRow, answers.RealizedAnswer, answers.PerformanceAnswer):
        for key, hint in get_type_hints(shape).items():
            if holds_decimal(hint):
                exact.add(key)
    assert exact == set(answers.EXACT_KEYS)
