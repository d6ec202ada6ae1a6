"""Breaker 56: method "uk" (same day, 30 days, Section 104 pool; a day's disposals as one) against an
independent reference of HMRC CRYPTO22200-22256 in fractions.Fraction, and the CSV export → import
of prices given in another currency (SPEC §16, §17, §19). Expected values are worked by hand (the
comment says how) or by the reference below, never read from the engine."""

from __future__ import annotations

import datetime
import random
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction as F
from typing import Any, Dict, List, Tuple

import pytest

import coinfolio

Event = Tuple[datetime.datetime, str, str, F, F, F]  # time, coin, buy|sell, amount, price, fee


def engine() -> coinfolio.Engine:
    return coinfolio.Engine(database=":memory:")


def dec(x: F) -> str:
    return str(Decimal(x.numerator) / Decimal(x.denominator))


# --- the reference (HMRC, CRYPTO22200-22256) --------------------------------------------------------


def uk_reference(events: List[Event]) -> Tuple[Dict[Any, Tuple[F, F, F]], Dict[str, Tuple[F, F]]]:
    """Per (coin, UTC day) of disposals: (cost, net proceeds, amount); per coin the pool (amount,
    cost). A day's acquisitions are one acquisition at their average cost (a buy's fee adds to it),
    its disposals one disposal (a sell's fee lowers proceeds). Same day first for every day, then
    30 days (day+1..day+30, earliest disposal first, earliest acquisition first), then the pool."""
    out: Dict[Any, Tuple[F, F, F]] = {}
    pools: Dict[str, Tuple[F, F]] = {}
    for coin in sorted({e[1] for e in events}):
        acq: Dict[Any, List[F]] = defaultdict(lambda: [F(0), F(0)])
        dis: Dict[Any, List[F]] = defaultdict(lambda: [F(0), F(0)])
        for ts, c, kind, amount, price, fee in events:
            if c == coin:
                side = acq if kind == "buy" else dis
                side[ts.date()][0] += amount
                side[ts.date()][1] += amount * price + (fee if kind == "buy" else -fee)
        left = {d: list(v) for d, v in acq.items()}
        owed = {d: v[0] for d, v in dis.items()}
        cost: Dict[Any, F] = defaultdict(F)

        def match(day: Any, acquired: Any) -> None:
            units, total = left[acquired]
            m = min(owed[day], units)
            if m > 0:
                part = total * m / units
                left[acquired] = [units - m, total - part]
                cost[day] += part
                owed[day] -= m

        for d in sorted(dis):
            if d in left:
                match(d, d)
        for d in sorted(dis):
            for a in sorted(left):
                if d < a <= d + datetime.timedelta(days=30):
                    match(d, a)
        units, total = F(0), F(0)
        for d in sorted(set(left) | set(dis)):
            if d in left:
                units, total = units + left[d][0], total + left[d][1]
            if owed.get(d, 0) > 0:
                part = total * owed[d] / units
                cost[d] += part
                units, total = units - owed[d], total - part
        for d, (amount, proceeds) in dis.items():
            out[(coin, d)] = (cost[d], proceeds, amount)
        pools[coin] = (units, total)
    return out, pools


def random_ledger(rng: random.Random, days: int) -> List[Event]:
    coins = ["aaa", "bbb", "ccc"][: rng.randint(1, 3)]
    held: Dict[str, F] = defaultdict(F)
    start = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    events: List[Event] = []
    for hour in sorted(rng.sample(range(days * 24), rng.randint(2, 14))):
        coin = rng.choice(coins)
        amount = F(rng.randint(1, 40), 10)
        fee = F(rng.randint(0, 3), 2) if rng.random() < 0.4 else F(0)
        kind = "sell" if held[coin] > 0 and rng.random() < 0.5 else "buy"
        if kind == "sell":
            amount = min(amount, held[coin])
        held[coin] += amount if kind == "buy" else -amount
        events.append((start + datetime.timedelta(hours=hour), coin, kind, amount, F(rng.randint(1, 900), 4), fee))
    return events


def close(got: Any, exact: F) -> bool:
    """To 30 significant digits (the exact cases are the failing tests below)."""
    value = got if isinstance(got, F) else F(Decimal(got))
    return abs(value - exact) <= abs(exact) * F(1, 10**30) + F(1, 10**33)


def run_uk(events: List[Event]) -> Tuple[Dict[Any, List[F]], Dict[str, Any], List[Any]]:
    e = engine()
    for ts, coin, kind, amount, price, fee in events:
        e.add_transaction(coin, kind, dec(amount), price=dec(price), fee=dec(fee), timestamp=ts.strftime("%Y-%m-%dT%H:%M:%SZ"))
    report = e.realized(method="uk")
    days: Dict[Any, List[F]] = defaultdict(lambda: [F(0), F(0), F(0)])
    for row in report["rows"]:
        day = days[(row["coin_id"], datetime.date.fromisoformat(row["disposed_at"][:10]))]
        day[0] += F(row["cost"])
        day[1] += F(row["proceeds"])
        day[2] += F(row["amount"])
    return days, report["totals"], e.pnl(method="uk")["coins"]


@pytest.mark.parametrize("seed,days,count", [(1, 40, 90), (3, 6, 90), (4, 3, 90)])
def test_uk_random_ledgers_match_the_reference(seed: int, days: int, count: int) -> None:
    """270 random ledgers agree to 30 significant digits (exact misses: the failing tests below)."""
    rng = random.Random(seed)
    for _ in range(count):
        events = random_ledger(rng, days)
        expected, pools = uk_reference(events)
        got, totals, coins = run_uk(events)
        assert set(got) == set(expected), events
        for key, (cost, proceeds, amount) in expected.items():
            assert all(close(g, x) for g, x in zip(got[key], (cost, proceeds, amount))), (key, events)
        cost = sum((v[0] for v in expected.values()), F(0))
        proceeds = sum((v[1] for v in expected.values()), F(0))
        assert close(totals["cost"], cost) and close(totals["proceeds"], proceeds), events
        assert close(totals["gain"], proceeds - cost), events
        for coin in coins:
            assert close(coin["amount"], pools[coin["coin_id"]][0]), events
            assert close(coin["cost_basis"], pools[coin["coin_id"]][1]), events


def uk_of(rows: List[Tuple[str, str, str, str, str]]) -> coinfolio.Engine:
    e = engine()
    for kind, amount, price, fee, ts in rows:
        e.add_transaction("aaa", kind, amount, price=price, fee=fee, timestamp=ts)
    return e


def test_uk_reference_agrees_with_hmrc_crypto22252() -> None:
    """The reference itself on HMRC's Martyn: pool 5,000 costing 500; one day sell 1,000 for 800,
    buy 1,600 for 1,000, sell 500 for 600 → cost 937.50, pool 5,100 costing 562.50."""
    t = lambda h: datetime.datetime(2024, 3, 1, h, tzinfo=datetime.timezone.utc)  # noqa: E731
    events: List[Event] = [
        (t(1) - datetime.timedelta(days=30), "x", "buy", F(5000), F(1, 10), F(0)),
        (t(9), "x", "sell", F(1000), F(8, 10), F(0)),
        (t(13), "x", "buy", F(1600), F(1000, 1600), F(0)),
        (t(20), "x", "sell", F(500), F(600, 500), F(0)),
    ]
    days, pools = uk_reference(events)
    assert days[("x", t(9).date())] == (F(1875, 2), F(1400), F(1500))
    assert pools["x"] == (F(5100), F(1125, 2))


# --- findings: exact answers the engine misses ------------------------------------------------------


def test_uk_pool_after_a_partial_same_day_match_is_exact() -> None:
    """Day 1: buy 1.3 @ 70.75 (91.975), sell 1.3, buy 1.1 @ 58.75 (64.625). The day's buys are one
    acquisition: 2.4 costing 156.6; the sell takes 1.3 of it (84.825); the pool keeps 1.1 costing
    156.6 − 84.825 = 71.775 (= 1.1 × 65.25). Engine: 71.774999999999999999999999999999999999."""
    e = uk_of([("buy", "1.3", "70.75", "0", "2024-01-01T00:00:00Z"), ("sell", "1.3", "198", "0", "2024-01-01T07:00:00Z"),
               ("buy", "1.1", "58.75", "0", "2024-01-01T14:00:00Z")])
    coin = e.pnl(method="uk")["coins"][0]
    assert (coin["amount"], coin["cost_basis"]) == (Decimal("1.1"), Decimal("71.775"))
    assert e.realized(method="uk")["totals"]["cost"] == Decimal("84.825")


def test_uk_two_sells_sharing_same_day_and_30_day_add_up() -> None:
    """Day 1 buy 3.6 @ 39. Day 2: buy 3.4 @ 14.5 (49.3), sell 2.6 @ 133.75 and 1 @ 223.25 (one
    disposal of 3.6 for 571). Same day 3.4 → 49.3; the other 0.2 match day 3's buy 2.5 @ 215.25 fee
    1.5 (539.625): 0.2/2.5 × 539.625 = 43.17. Cost 92.47, gain 478.53; the rows' amounts add up to
    3.6. Engine: amounts 3.600…004, totals cost 92.470…002 while gain 478.53 (gain ≠ 571 − cost)."""
    e = uk_of([("buy", "3.6", "39", "0", "2024-01-01T18:00:00Z"), ("buy", "3.4", "14.5", "0", "2024-01-02T04:00:00Z"),
               ("sell", "2.6", "133.75", "0", "2024-01-02T06:00:00Z"), ("sell", "1", "223.25", "0", "2024-01-02T23:00:00Z"),
               ("buy", "2.5", "215.25", "1.5", "2024-01-03T12:00:00Z")])
    report = e.realized(method="uk")
    assert sum(F(r["amount"]) for r in report["rows"]) == F("3.6")  # Fraction: a Decimal sum rounds to 28 digits
    assert (report["totals"]["cost"], report["totals"]["proceeds"], report["totals"]["gain"]) == (
        Decimal("92.47"), Decimal("571"), Decimal("478.53"))
    coin = e.pnl(method="uk")["coins"][0]
    assert (coin["amount"], coin["cost_basis"]) == (Decimal("5.9"), Decimal("140.4") + Decimal("539.625") - Decimal("43.17"))


def test_uk_totals_cost_exact_when_pieces_do_not_terminate() -> None:
    """Day 1: buy 1.4 @ 76.5, sell 1.4, buy 0.5 @ 99 (day's 1.9 cost 156.6); day 2 buy 1.8 @ 76.25
    (137.25); day 3 sell 2.3 = the whole pool. Every unit bought is sold: total cost 156.6 + 137.25 =
    293.85 exactly (the day pieces are thirds of nineteenths). Engine: 293.85000…001."""
    e = uk_of([("buy", "1.4", "76.5", "0", "2024-01-01T08:00:00Z"), ("sell", "1.4", "219.25", "1.5", "2024-01-01T16:00:00Z"),
               ("buy", "0.5", "99", "0", "2024-01-01T21:00:00Z"), ("buy", "1.8", "76.25", "0", "2024-01-02T10:00:00Z"),
               ("sell", "2.3", "56.75", "0", "2024-01-03T23:00:00Z")])
    totals = e.realized(method="uk")["totals"]
    assert (totals["cost"], totals["proceeds"]) == (Decimal("293.85"), Decimal("435.975"))
    assert totals["gain"] == Decimal("435.975") - Decimal("293.85")


def test_uk_rounding_dust_never_becomes_units_of_unknown_cost() -> None:
    """Every price known. Day 1 buy 0.5 @ 176 fee 1 (89). Day 2 buy 3.4 @ 111.75 (379.95), sell 3.6
    @ 129.75 fee 1 and 0.3 @ 180: one disposal of 3.9 for 520.1: same day 3.4 (379.95) + 0.5 of day
    3's buy 1.4 @ 165 (82.5). Day 4 buy 0.9 @ 111. Day 6 sell 2.3 @ 15.25 = the pool (0.5: 89, 0.9:
    148.5, 0.9: 99.9 → 337.4). Totals: proceeds 555.175, cost 799.85, gain −244.675, coverage 1;
    nothing left. Engine: a 5E-37 row of the 2024-01-04 lot with cost None, coverage 0.857…,
    gain −244.675000…001 (found by the random differential, seed 12, ledger 213, minimized)."""
    e = uk_of([("buy", "0.5", "176", "1", "2024-01-01T17:00:00Z"), ("buy", "3.4", "111.75", "0", "2024-01-02T00:00:00Z"),
               ("sell", "3.6", "129.75", "1", "2024-01-02T07:00:00Z"), ("sell", "0.3", "180", "0", "2024-01-02T16:00:00Z"),
               ("buy", "1.4", "165", "0", "2024-01-03T02:00:00Z"), ("buy", "0.9", "111", "0", "2024-01-04T00:00:00Z"),
               ("sell", "2.3", "15.25", "0", "2024-01-06T15:00:00Z")])
    report = e.realized(method="uk")
    assert [r for r in report["rows"] if r["cost"] is None] == []
    totals = report["totals"]
    assert (totals["proceeds"], totals["cost"], totals["gain"], totals["coverage"]) == (
        Decimal("555.175"), Decimal("799.85"), Decimal("-244.675"), 1)
    assert e.pnl(method="uk")["coins"][0]["realized_coverage"] == 1


@pytest.mark.parametrize("method", ["uk", "fifo"])
def test_a_disposals_row_proceeds_add_up_to_its_net_proceeds(method: str) -> None:
    """Sell 3.5 @ 131 fee 1 → 457.5 net, split by units over two lots (uk: 0.2 from the 30-day buy,
    3.3 from the pool; fifo: two lots 0.2 and 3.4). SPEC §19 splits proceeds over the lots; the
    rows must add up to 457.5 (the totals do). Engine rows: 26.142857…857 + 431.357142…714 =
    457.499…997 (the cost pieces were made cumulative, the proceeds pieces were not)."""
    e = engine()
    e.add_transaction("aaa", "buy", "0.2", price="190.25", timestamp="2024-01-06T15:00:00Z")
    e.add_transaction("aaa", "buy", "3.4", price="190.25", timestamp="2024-01-07T15:00:00Z")
    e.add_transaction("aaa", "sell", "3.5", price="131", fee="1", timestamp="2024-01-11T14:00:00Z")
    e.add_transaction("aaa", "buy", "0.2", price="161.25", timestamp="2024-01-17T21:00:00Z")
    rows = e.realized(method=method)["rows"]
    assert len(rows) == 2
    assert sum(F(r["proceeds"]) for r in rows) == F("457.5")  # Fraction: a Decimal sum rounds to 28 digits
    assert sum(F(r["gain"]) for r in rows) == F(e.realized(method=method)["totals"]["gain"])


def test_uk_transfer_out_between_a_days_sells_income_and_fee_rows() -> None:
    """Passing: buy 4 @ 10; day 2 buy 2 @ 16, sell 1 @ 20, transfer_out 1, sell 2 @ 30 → one disposal
    of 3 for 80: 2 same day (32) + 1 from the pool (10) = 42; pool 4 − 1 − 1 = 2 costing 20.
    A fee row and an income row count as a disposal and an acquisition of their day."""
    e = uk_of([("buy", "4", "10", "0", "2024-01-01T10:00:00Z"), ("buy", "2", "16", "0", "2024-01-02T09:00:00Z"),
               ("sell", "1", "20", "0", "2024-01-02T10:00:00Z")])
    e.add_transaction("aaa", "transfer_out", "1", timestamp="2024-01-02T11:00:00Z")
    e.add_transaction("aaa", "sell", "2", price="30", timestamp="2024-01-02T12:00:00Z")
    totals = e.realized(method="uk")["totals"]
    assert (totals["cost"], totals["proceeds"], totals["gain"]) == (Decimal("42"), Decimal("80"), Decimal("38"))
    assert e.pnl(method="uk")["coins"][0]["cost_basis"] == Decimal("20")
    # fee 0.5 @ 20 (10), buy 1 @ 12, sell 1 @ 30 on day 2: disposal 1.5 for 40, 1 same day (12) + 0.5 pool (5)
    e = uk_of([("buy", "4", "10", "0", "2024-01-01T10:00:00Z"), ("fee", "0.5", "20", "0", "2024-01-02T10:00:00Z"),
               ("buy", "1", "12", "0", "2024-01-02T12:00:00Z"), ("sell", "1", "30", "0", "2024-01-02T13:00:00Z")])
    e.add_transaction("aaa", "income", "2", price="5", timestamp="2024-01-02T14:00:00Z", income_type="staking")
    totals = e.realized(method="uk")["totals"]
    # the income (2 @ 5) joins the day's acquisitions: 3 costing 22, the disposal takes 1.5 of them
    assert (totals["cost"], totals["proceeds"]) == (Decimal("11"), Decimal("40"))
    assert e.pnl(method="uk")["coins"][0]["cost_basis"] == Decimal("40") + Decimal("11")  # pool 40 + 1.5 of 3 left


# --- CSV export → import with a price in another currency (SPEC §16, §17) ---------------------------

HEADER = "timestamp,portfolio,coin_id,kind,amount,price,fee,note,external_id,fee_coin_id,fee_price,income_type,group_id,price_currency,original_price\r\n"
SKIP = ("id", "external_id", "group_id")


def eur_ledger() -> coinfolio.Engine:
    """Points on 2024-01-05: btc 110 usd / 100 eur, eth 11 usd / 10 eur (eur → usd × 1.1)."""
    e = engine()
    for coin, usd, eur in (("btc", "110", "100"), ("eth", "11", "10")):
        e.set_price(coin, usd, timestamp="2024-01-05T00:00:00Z", vs_currency="usd")
        e.set_price(coin, eur, timestamp="2024-01-05T00:00:00Z", vs_currency="eur")
    e.add_transaction("eth", "buy", "5", price="10", timestamp="2024-01-04T10:00:00Z")
    e.add_transaction("btc", "buy", "2", price="100", timestamp="2024-01-04T10:00:00Z")
    e.add_transaction("btc", "sell", "0.5", price="60", fee="0.1", fee_coin_id="eth", price_currency="eur", timestamp="2024-01-05T11:00:00Z")
    e.add_transaction("btc", "buy", "0.5", price="60", fee="0.2", fee_coin_id="eth", fee_price="9", price_currency="eur", timestamp="2024-01-05T12:00:00Z")
    e.add_transaction("btc", "sell", "0.5", price="60", fee="0.2", fee_coin_id="eth", price_currency="eur", timestamp="2024-01-07T12:00:00Z")
    return e


def diffs(a: coinfolio.Engine, b: coinfolio.Engine) -> List[Tuple[str, str, Any, Any]]:
    left, right = a.transactions()["transactions"], b.transactions()["transactions"]
    assert len(left) == len(right)
    return [(x["id"], k, x[k], y[k]) for x, y in zip(left, right) for k in x if k not in SKIP and x[k] != y[k]]


def test_round_trip_keeps_the_fee_rows_currency_and_original_price() -> None:
    """Sell 0.5 btc @ 60 eur, fee 0.1 eth, no fee_price: its fee row (id 4) is priced by the usd
    point 11 (price_source "manual", no price_currency). The buy's fee_price 9 eur → fee row (id 6)
    price 9.9 usd, original_price 9 eur. After export → import into a fresh engine the fee row 4
    says price_currency "eur" and price_source "user" (its 11 was never eur), the parent gains
    fee_price 11, and fee row 6 loses original_price 9."""
    e = eur_ledger()
    fresh = engine()
    assert fresh.import_csv(e.export_csv()) == {"imported": 5, "skipped": 0}  # a fee row travels on its parent's line
    fee_rows = [t for t in fresh.transactions()["transactions"] if t["kind"] == "fee"]
    got = [(t["price"], t["price_currency"], t["original_price"]) for t in fee_rows]
    # was: [(11, 'eur', None), (9.9, 'eur', None), (None, None, None)]. A converted parent's fee row
    # comes back priced in usd with no price_currency; fee row 6's original 9 eur has no column
    # (README "Known limits"), so it comes back as 9.9 usd too.
    assert got == [(Decimal("11"), None, None), (Decimal("9.9"), None, None), (None, None, None)]
    assert fresh.pnl()["totals"] == e.pnl()["totals"] and fresh.pnl(method="uk")["totals"] == e.pnl(method="uk")["totals"]


def test_round_trip_keeps_values_but_not_price_at() -> None:
    """A converted row's price_at (the day's point, 1704412800000) has no column (README "Known
    limits"): it comes back None; every amount, price and fee is the same."""
    e = eur_ledger()
    fresh = engine()
    fresh.import_csv(e.export_csv())
    # fee_price: a parent carries the price its fee row took (export's rule, README "CSV").
    assert {d[1] for d in diffs(e, fresh)} <= {"price_at", "price_source", "price_currency", "original_price", "fee_price"}
    assert [d for d in diffs(e, fresh) if d[1] == "price_at"][0][2:] == (1704412800000, None)


def test_reimport_of_own_export_and_auto_format_import_nothing() -> None:
    """Passing: the own export into the same portfolio imports 0 (csv and auto), pnl unchanged."""
    e = eur_ledger()
    text = e.export_csv()
    assert text.split("\r\n")[0] == HEADER.strip()
    before = e.pnl()["totals"]
    assert e.import_csv(text) == {"imported": 0, "skipped": 5}
    answer = e.import_file(text.encode())
    assert (answer["format"], answer["imported"], answer["skipped"]) == ("coinfolio", 0, 5)
    assert e.pnl()["totals"] == before


def test_pending_eur_row_converts_on_import_with_stored_points() -> None:
    """Passing: the pending sell of 2024-01-07 (0.5 @ 60 eur) imported where that day's points exist
    (110 usd / 100 eur) is converted: 60 × 1.1 = 66 usd, original_price 60 eur."""
    text = eur_ledger().export_csv()
    g = engine()
    for coin, usd, eur in (("btc", "110", "100"), ("eth", "11", "10")):
        g.set_price(coin, usd, timestamp="2024-01-07T00:00:00Z", vs_currency="usd")
        g.set_price(coin, eur, timestamp="2024-01-07T00:00:00Z", vs_currency="eur")
    g.import_csv(text)
    row = [t for t in g.transactions()["transactions"] if t["timestamp"] == "2024-01-07T12:00:00Z" and t["kind"] == "sell"][0]
    assert (row["price"], row["original_price"], row["price_currency"]) == (Decimal("66"), Decimal("60"), "eur")


BAD_ROWS = [
    ("2024-01-05T11:00:00Z,main,btc,buy,1,55,0,,x2,,,,,EURO,50", "price_currency"),
    ("2024-01-05T11:00:00Z,main,btc,buy,1,55,0,,x2,,,,,,50", "original_price"),
    ("2024-01-05T11:00:00Z,main,btc,buy,1,,0,,x2,,,,,,50", "original_price"),
    ("2024-01-05T11:00:00Z,main,btc,buy,1,55,0,,x2,,,,,eur,-50", "original_price"),
    ("2024-01-05T11:00:00Z,main,btc,transfer_in,1,,0,,x2,,,,,eur,50", "price_currency"),
    ("2024-01-05T11:00:00Z,main,btc,transfer_out,1,,,,x2,,,,,eur,", "price_currency"),
    ("2024-01-05T11:00:00Z,main,btc,buy,1,55,0,,x2,,,,,e u r,50", "price_currency"),
]


@pytest.mark.parametrize("row,column", BAD_ROWS)
@pytest.mark.parametrize("how", ["csv", "auto"])
def test_bad_currency_cells_refuse_the_whole_file(row: str, column: str, how: str) -> None:
    """Passing: a good first row and a bad second one: line 3 and its column, nothing imported."""
    e = engine()
    text = HEADER + "2024-01-05T10:00:00Z,main,btc,buy,2,55,1.1,,x1,,,,,eur,50\r\n" + row + "\r\n"
    with pytest.raises(coinfolio.InvalidArgument) as caught:
        e.import_csv(text) if how == "csv" else e.import_file(text.encode())
    assert (caught.value.details["line"], caught.value.details["column"]) == (3, column)
    assert e.transactions()["transactions"] == []


def test_trade_priced_in_eur_through_csv_round_trips() -> None:
    """A trade written as two rows sharing group_id "t" priced in eur (0.1 btc → 1 eth worth 9 eur):
    converted with the day's points to 9.9 usd for the eth and 99 usd per btc; the export → import
    into a fresh engine gives the same rows and one group."""
    e = eur_ledger()
    e.import_csv(HEADER + "2024-01-05T13:00:00Z,main,btc,sell,0.1,,0,,t1,,,,t,eur,90\r\n"
                 "2024-01-05T13:00:00Z,main,eth,buy,1,,0,,t2,,,,t,eur,9\r\n")
    rows = [t for t in e.transactions()["transactions"] if t["external_id"] in ("t1", "t2")]
    assert [(r["price"], r["original_price"]) for r in rows] == [(Decimal("99"), Decimal("90")), (Decimal("9.9"), Decimal("9"))]
    assert rows[0]["group_id"] == rows[1]["group_id"] is not None
    fresh = engine()
    fresh.import_csv(e.export_csv())
    assert [d for d in diffs(e, fresh) if d[1] not in ("price_at",) and d[0] in (r["id"] for r in rows)] == []
