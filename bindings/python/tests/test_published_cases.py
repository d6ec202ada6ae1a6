"""SPEC §16 and §19 against published definitions, each expected value worked by hand from the
source named in the test: HMRC's Cryptoassets Manual pooling examples (CRYPTO22251-22256, the
same day and 30 day rules of TCGA 1992 s105/s106A), IRS Publication 544's holding period, the
German one-year rule (§23 Abs. 1 Nr. 2 EStG, periods counted by §§187, 188 BGB), and the GIPS/CFA
time-weighted and money-weighted returns. The HMRC examples say "20XX"; they are placed in 2024
with the pool bought on 2024-01-01. HMRC rounds to whole pounds; the engine is exact, so the
tests compare to the cent and say where HMRC rounded."""

from __future__ import annotations

import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import coinfolio
from conftest import cents

HMRC = "https://www.gov.uk/hmrc-internal-manuals/cryptoassets-manual/"


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[coinfolio.Engine]:
    with coinfolio.Engine(database=str(tmp_path / "published.sqlite")) as opened:
        yield opened


def uk(engine: coinfolio.Engine, **options: Any) -> Tuple[List[Dict[str, Any]], Dict[str, Any], Dict[str, Any]]:
    """The uk rows, their totals and the coin's pnl (what is left in the Section 104 pool)."""
    report = engine.realized(method="uk", **options)
    coins = engine.pnl(method="uk")["coins"]
    return report["rows"], report["totals"], dict(coins[0]) if coins else {}


# --- HMRC pooling examples (CRYPTO22250 lists them) ------------------------------------------------


def test_crypto22251_basic_section_104_pool(engine: coinfolio.Engine) -> None:
    """HMRC + 'crypto22251': 100 for £1,000, 50 for £125,000 → pool 150 costing £126,000; sell 50
    for £300,000: cost 126,000 × 50/150 = 42,000, gain 258,000; the pool keeps 100 costing 84,000."""
    engine.add_transaction("token", "buy", 100, price=10, timestamp="2024-01-01")
    engine.add_transaction("token", "buy", 50, price=2500, timestamp="2024-09-18")
    engine.add_transaction("token", "sell", 50, price=6000, timestamp="2024-12-01")
    rows, totals, pool = uk(engine)
    assert [(r["amount"], r["cost"], r["gain"]) for r in rows] == [(50, 42000, 258000)]
    assert (pool["amount"], pool["cost_basis"]) == (100, 84000)


def test_crypto22252_same_day_rule(engine: coinfolio.Engine) -> None:
    """HMRC + 'crypto22252' (Martyn): pool 5,000 costing £500; on one day sell 1,000 for £800 in the
    morning, buy 1,600 for £1,000 in the afternoon, sell 500 for £600 in the evening. One disposal
    of 1,500 for £1,400 matched with the day's buy: cost 1,000 × 1,500/1,600 = 937.50 (HMRC: £938),
    gain 462.50 (£462); the other 100 bought go to the pool: 5,100 costing 500 + 62.50 = 562.50."""
    engine.add_transaction("token", "buy", 5000, price="0.1", timestamp="2024-01-01")
    engine.add_transaction("token", "sell", 1000, price="0.8", timestamp="2024-06-23T09:00:00Z")
    engine.add_transaction("token", "buy", 1600, price="0.625", timestamp="2024-06-23T14:00:00Z")
    engine.add_transaction("token", "sell", 500, price="1.2", timestamp="2024-06-23T20:00:00Z")
    rows, totals, pool = uk(engine)
    assert all(r["acquired_at"][:10] == "2024-06-23" for r in rows)
    assert (totals["proceeds"], totals["cost"], totals["gain"]) == (1400, Decimal("937.5"), Decimal("462.5"))
    assert (pool["amount"], pool["cost_basis"]) == (5100, Decimal("562.5"))


def daniel(engine: coinfolio.Engine) -> None:
    """HMRC + 'crypto22254' (Daniel): pool 8,000 costing £1,000; on 31 January: sell 5,000 for
    £500; buy 4,000 for £320, 1,000 for £75, 1,000 for £70; sell 2,000 for £142; buy 500 for £35."""
    engine.add_transaction("token", "buy", 8000, price="0.125", timestamp="2024-01-01")
    for kind, amount, value in (("sell", 5000, 500), ("buy", 4000, 320), ("buy", 1000, 75), ("buy", 1000, 70),
                                ("sell", 2000, 142), ("buy", 500, 35)):
        price = Decimal(value) / Decimal(amount)
        engine.add_transaction("token", kind, amount, price=price, timestamp="2024-01-31T12:00:00Z")


def test_crypto22254_same_day_rule_and_the_pool(engine: coinfolio.Engine) -> None:
    """One disposal of 7,000 for £642 against one acquisition of 6,500 costing £500; the other 500
    from the pool: 1,000 × 500/8,000 = 62.50 (HMRC: £63); gain 642 − 500 − 62.50 = 79.50 (£79);
    the pool keeps 7,500 costing 937.50 (£937)."""
    daniel(engine)
    rows, totals, pool = uk(engine)
    same_day = sum((r["amount"] for r in rows if r["acquired_at"][:10] == "2024-01-31"), Decimal(0))
    assert same_day == 6500
    assert (cents(totals["cost"]), cents(totals["gain"])) == (Decimal("562.50"), Decimal("79.50"))
    assert (pool["amount"], cents(pool["cost_basis"])) == (7500, Decimal("937.50"))


def test_crypto22254_pool_cost_is_exact(engine: coinfolio.Engine) -> None:
    """The same example without rounding: 1,000 × 500/8,000 is exactly 62.5 and every input is an
    exact decimal (SPEC §12 'Exact amounts'), yet the engine splits each disposal by 7,000ths and
    leaves the pool at 937.49999999999999999999999999999999999 and the cost at 562.5…01."""
    daniel(engine)
    rows, totals, pool = uk(engine)
    assert totals["cost"] == Decimal("562.5")
    assert totals["gain"] == Decimal("79.5")
    assert pool["cost_basis"] == Decimal("937.5")


def test_crypto22255_thirty_day_rule_and_the_pool(engine: coinfolio.Engine) -> None:
    """HMRC + 'crypto22255' (Melanie): pool 14,000 costing £200,000 (here 14,000 @ 14 + a £4,000
    fee: fees are allowable costs, CRYPTO22150); sell 4,000 for £160,000 on 30 August, buy 500 for
    £17,500 on 11 September: 500 match it (17,500), 3,500 the pool (200,000 × 3,500/14,000 =
    50,000); gain 92,500; the pool keeps 10,500 costing 150,000."""
    engine.add_transaction("token", "buy", 14000, price=14, fee=4000, timestamp="2024-01-01")
    engine.add_transaction("token", "sell", 4000, price=40, timestamp="2024-08-30")
    engine.add_transaction("token", "buy", 500, price=35, timestamp="2024-09-11")
    rows, totals, pool = uk(engine)
    assert [(r["amount"], r["cost"], r["acquired_at"][:10]) for r in rows] == [
        (500, 17500, "2024-09-11"), (3500, 50000, "2024-01-01")]
    assert totals["gain"] == 92500
    assert (pool["amount"], pool["cost_basis"]) == (10500, 150000)


def test_crypto22256_same_day_thirty_day_and_pool(engine: coinfolio.Engine) -> None:
    """HMRC + 'crypto22256' (Gulferaz): pool 100,000 costing £300,000. 31 July buy 10,000 for
    £45,000 and sell 30,000 for £150,000; 5 August sell 20,000 for £100,000; 6 August buy 50,000
    for £225,000; 7 August sell 100,000 for £150,000. 31 July: same day 10,000 (45,000) + 30 day
    20,000 of 6 August (90,000): gain 15,000. 5 August: 20,000 of 6 August (90,000): gain 10,000.
    The other 10,000 of 6 August (45,000) join the pool: 110,000 costing 345,000. 7 August: cost
    345,000 × 100,000/110,000 = 313,636.36, loss 163,636.36; the pool keeps 10,000 costing 31,363.64."""
    engine.add_transaction("token", "buy", 100000, price=3, timestamp="2024-01-01")
    engine.add_transaction("token", "buy", 10000, price="4.5", timestamp="2024-07-31T09:00:00Z")
    engine.add_transaction("token", "sell", 30000, price=5, timestamp="2024-07-31T10:00:00Z")
    engine.add_transaction("token", "sell", 20000, price=5, timestamp="2024-08-05")
    engine.add_transaction("token", "buy", 50000, price="4.5", timestamp="2024-08-06")
    engine.add_transaction("token", "sell", 100000, price="1.5", timestamp="2024-08-07")
    rows, totals, pool = uk(engine)
    assert [(r["disposed_at"][:10], r["amount"], cents(r["cost"]), cents(r["gain"])) for r in rows] == [
        ("2024-07-31", 10000, Decimal("45000.00"), Decimal("5000.00")),
        ("2024-07-31", 20000, Decimal("90000.00"), Decimal("10000.00")),
        ("2024-08-05", 20000, Decimal("90000.00"), Decimal("10000.00")),
        ("2024-08-07", 100000, Decimal("313636.36"), Decimal("-163636.36")),
    ]
    assert (pool["amount"], cents(pool["cost_basis"])) == (10000, Decimal("31363.64"))


# --- the rules around the examples (TCGA 1992 s105, s106A; CRYPTO22200 onwards) -------------------


@pytest.mark.parametrize(
    ("bought", "cost", "gain", "pool_cost"),
    [
        ("2024-03-31T23:00:00Z", 204, 90, 1010),  # 30 days after the disposal: matched
        ("2024-04-01T01:00:00Z", 101, 193, 1113),  # 31 days after: the pool
    ],
)
def test_thirty_days_after_matched_thirty_one_not(
    engine: coinfolio.Engine, bought: str, cost: int, gain: int, pool_cost: int
) -> None:
    """s106A(5)(b): 'acquired ... within the period of thirty days after the time of the disposal'
    (HMRC + 'crypto22253' counts 1 May as outside the 30 days after 31 March). Pool 1,000 costing
    1,010 (fee 10); sell 100 @ 3 fee 6 on 1 March (proceeds 294); buy 100 @ 2 fee 4 (cost 204).
    31 March: gain 294 − 204 = 90, the pool untouched. 1 April: pool cost 1,010 × 100/1,000 = 101,
    gain 193, the pool then 900 costing 909 plus the 100 bought (204): 1,113."""
    engine.add_transaction("token", "buy", 1000, price=1, fee=10, timestamp="2024-01-01")
    engine.add_transaction("token", "sell", 100, price=3, fee=6, timestamp="2024-03-01T01:00:00Z")
    engine.add_transaction("token", "buy", 100, price=2, fee=4, timestamp=bought)
    rows, totals, pool = uk(engine)
    assert [(r["proceeds"], r["cost"], r["gain"]) for r in rows] == [(294, cost, gain)]
    assert (pool["amount"], pool["cost_basis"]) == (1000, pool_cost)


def test_acquisitions_of_one_day_are_one_acquisition(engine: coinfolio.Engine) -> None:
    """s105(1)(a), restated in CRYPTO22254 and CRYPTO22257 ('treated as a single acquisition'):
    buys of 1,000 @ 1 and 1,000 @ 3 on the day of a sale of 1,000 @ 4 are one acquisition of 2,000
    costing 4,000; the sale's cost is 2,000 (not the first buy's 1,000), gain 2,000, and the pool
    gets the other 1,000 at 2,000: 2,000 units costing 3,000."""
    engine.add_transaction("token", "buy", 1000, price=1, timestamp="2024-01-01")
    engine.add_transaction("token", "buy", 1000, price=1, timestamp="2024-05-01T08:00:00Z")
    engine.add_transaction("token", "buy", 1000, price=3, timestamp="2024-05-01T09:00:00Z")
    engine.add_transaction("token", "sell", 1000, price=4, timestamp="2024-05-01T10:00:00Z")
    rows, totals, pool = uk(engine)
    assert (totals["cost"], totals["gain"]) == (2000, 2000)
    assert (pool["amount"], pool["cost_basis"]) == (2000, 3000)


def test_the_same_day_rule_comes_before_the_thirty_day_rule(engine: coinfolio.Engine) -> None:
    """TCGA s105(1)(b) (same day) before s106A(5) (30 days), as CRYPTO22256 matches 31 July. Sell 100 @ 2 on
    1 March and 100 @ 2 on 5 March, buy 100 @ 5 on 5 March: the 5 March sale takes it (cost 500,
    loss 300), the 1 March sale the pool (cost 100, gain 100); the pool keeps 900 costing 900."""
    engine.add_transaction("token", "buy", 1000, price=1, timestamp="2024-01-01")
    engine.add_transaction("token", "sell", 100, price=2, timestamp="2024-03-01")
    engine.add_transaction("token", "sell", 100, price=2, timestamp="2024-03-05T08:00:00Z")
    engine.add_transaction("token", "buy", 100, price=5, timestamp="2024-03-05T18:00:00Z")
    rows, totals, pool = uk(engine)
    assert [(r["disposed_at"][:10], r["cost"], r["gain"]) for r in rows] == [("2024-03-01", 100, 100), ("2024-03-05", 500, -300)]
    assert (pool["amount"], pool["cost_basis"]) == (900, 900)


def test_thirty_days_reach_into_the_next_year(engine: coinfolio.Engine) -> None:
    """A sale on 20 December matched to a buy of 5 January: the year's report uses the next
    year's buy (cost 300, loss 100) and the next year's report has no disposal."""
    engine.add_transaction("token", "buy", 1000, price=1, timestamp="2024-01-01")
    engine.add_transaction("token", "sell", 100, price=2, timestamp="2024-12-20")
    engine.add_transaction("token", "buy", 100, price=3, timestamp="2025-01-05")
    rows, totals, _ = uk(engine, year=2024)
    assert [(r["acquired_at"][:10], r["cost"], r["gain"]) for r in rows] == [("2025-01-05", 300, -100)]
    assert uk(engine, year=2025)[0] == []


# --- holding periods: IRS Publication 544, §23 EStG --------------------------------------------------


@pytest.mark.parametrize(("sold", "term"), [("2024-06-15", "short"), ("2024-06-16", "long"), ("2024-06-17", "long")])
def test_pub_544_holding_period(engine: coinfolio.Engine, sold: str, term: str) -> None:
    """IRS Publication 544, 'Holding period': 'start counting on the day following the day you
    acquired the property'; bought 15 June 2023, sold 15 June 2024 is not longer than 1 year,
    17 June is. 16 June completes a year counted from 16 June 2023, so it is long too."""
    engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp="2023-06-15T15:00:00Z")
    engine.add_transaction("bitcoin", "sell", 1, price=150, timestamp=sold + "T10:00:00Z")
    assert [r["term"] for r in engine.realized()["rows"]] == [term]


@pytest.mark.parametrize(
    ("bought", "sold", "tax_free", "days"),
    [
        ("2024-02-29", "2025-02-28", False, 365),  # §188(3) BGB: the year ends on 28 February
        ("2024-02-29", "2025-03-01", True, 366),
        ("2023-02-28", "2024-02-28", False, 365),  # §188(2): ends on the day of the same number
        ("2023-02-28", "2024-02-29", True, 366),
    ],
)
def test_german_one_year_rule_over_leap_days(engine: coinfolio.Engine, bought: str, sold: str, tax_free: bool, days: int) -> None:
    """§23 Abs. 1 Nr. 2 EStG: taxable when 'der Zeitraum zwischen Anschaffung und Veräußerung nicht
    mehr als ein Jahr beträgt'; the year runs from the day after (§187(1) BGB) to the day of the
    same number a year later, or the month's last day when it has none (§188(2), (3)). Note: for
    the US, a lot bought on a month's last day is held month by month to the last day of each
    month (Caspe v. United States, 694 F.2d 1116, 8th Cir. 1982), so 2023-02-28 → 2024-02-29 is
    short there; SPEC §19 decides one anniversary rule for both, and the engine says long."""
    engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp=bought + "T12:00:00Z")
    engine.add_transaction("bitcoin", "sell", 1, price=150, timestamp=sold + "T12:00:00Z")
    report = engine.realized(tax_free_after_years=1)
    assert [(r["tax_free"], r["holding_days"]) for r in report["rows"]] == [(tax_free, days)]
    assert report["totals"]["taxable_gain"] == (0 if tax_free else 50)


def test_tax_free_after_two_years_is_its_own_anniversary(engine: coinfolio.Engine) -> None:
    """tax_free_after_years 2 counts its anniversary as one year does (§188(2) BGB): bought
    2022-05-10; sold 2024-05-10 taxable, 2024-05-11 tax-free; both long (1 year)."""
    engine.add_transaction("bitcoin", "buy", 2, price=100, timestamp="2022-05-10T12:00:00Z")
    engine.add_transaction("bitcoin", "sell", 1, price=150, timestamp="2024-05-10T12:00:00Z")
    engine.add_transaction("bitcoin", "sell", 1, price=150, timestamp="2024-05-11T12:00:00Z")
    rows = engine.realized(tax_free_after_years=2)["rows"]
    assert [(r["term"], r["tax_free"]) for r in rows] == [("long", False), ("long", True)]


def test_a_move_between_own_wallets_keeps_the_acquisition_date(engine: coinfolio.Engine) -> None:
    """A transfer between one's own wallets is no disposal (no change of beneficial
    owner, HMRC CRYPTO22100; nor a sale under §23 EStG, BMF letter of 10 May 2022): bought 2023-01-10, moved 2023-12-01, sold
    2024-01-11 from the other wallet: held from 2023-01-10, long and tax-free, gain 200; the move
    itself realizes nothing."""
    engine.create_portfolio("cold")
    engine.add_transaction("bitcoin", "buy", 1, price=100, timestamp="2023-01-10T10:00:00Z")
    engine.move("bitcoin", 1, "main", "cold", timestamp="2023-12-01")
    engine.add_transaction("bitcoin", "sell", 1, price=300, timestamp="2024-01-11", portfolio="cold")
    rows = engine.realized(portfolio="cold", tax_free_after_years=1)["rows"]
    assert [(r["acquired_at"], r["cost"], r["gain"], r["term"], r["tax_free"]) for r in rows] == [
        ("2023-01-10T10:00:00Z", 100, 200, "long", True)]
    assert engine.realized(portfolio="main")["rows"] == []


# --- cost basis of income, average cost, swaps ---------------------------------------------------------


def test_staking_income_forms_the_cost_basis(engine: coinfolio.Engine) -> None:
    """Staking rewards are income at their value when received, which is then their cost (HMRC
    CRYPTO21200; IRS Rev. Rul. 2023-14): 0.5 ETH at 2,000 → income 1,000; sold at 2,500 → proceeds
    1,250, cost 1,000, gain 250."""
    engine.add_transaction("ethereum", "income", "0.5", price=2000, income_type="staking", timestamp="2024-01-10")
    engine.add_transaction("ethereum", "sell", "0.5", price=2500, timestamp="2024-02-10")
    report = engine.realized(year=2024)
    assert [(r["proceeds"], r["cost"], r["gain"]) for r in report["rows"]] == [(1250, 1000, 250)]
    assert report["income_total"] == 1000


def test_average_cost(engine: coinfolio.Engine) -> None:
    """Average cost (CRA's adjusted cost base: total cost ÷ units): 1 @ 100 fee 1 and 1 @ 200 →
    150.50 a unit; sell 1.5 @ 300 fee 3: proceeds 447, cost 225.75, gain 221.25; 0.5 left at 75.25."""
    engine.add_transaction("bitcoin", "buy", 1, price=100, fee=1, timestamp="2024-01-01")
    engine.add_transaction("bitcoin", "buy", 1, price=200, timestamp="2024-01-02")
    engine.add_transaction("bitcoin", "sell", "1.5", price=300, fee=3, timestamp="2024-01-03")
    totals = engine.realized(method="average")["totals"]
    assert (totals["proceeds"], totals["cost"], totals["gain"]) == (447, Decimal("225.75"), Decimal("221.25"))
    assert engine.pnl(method="average")["coins"][0]["cost_basis"] == Decimal("75.25")


def test_a_swap_with_a_fee_in_a_third_coin(engine: coinfolio.Engine) -> None:
    """A crypto-to-crypto exchange disposes of one token and acquires another at its value (HMRC
    + 'crypto22257'; IRS virtual currency FAQs); a fee paid in BNB is itself a disposal of
    BNB and an allowable cost. 0.5 BTC (cost 10,000) → 10 ETH worth 30,000, fee 0.01 BNB (cost 3)
    at 310: BTC gain 30,000 − 10,000 = 20,000; BNB gain 3.10 − 3 = 0.10; the ETH lot costs 30,003.10."""
    engine.add_transaction("binancecoin", "buy", 1, price=300, timestamp="2024-01-01")
    engine.add_transaction("bitcoin", "buy", 1, price=20000, timestamp="2024-01-02")
    engine.add_trade(("bitcoin", "0.5"), ("ethereum", 10), value=30000, fee="0.01", fee_coin_id="binancecoin",
                     fee_price=310, timestamp="2024-03-01")
    rows = engine.realized()["rows"]
    assert [(r["coin_id"], r["proceeds"], r["cost"], r["gain"]) for r in rows] == [
        ("bitcoin", 30000, 10000, 20000), ("binancecoin", Decimal("3.1"), 3, Decimal("0.1"))]
    coins = {c["coin_id"]: c for c in engine.pnl()["coins"]}
    assert coins["ethereum"]["cost_basis"] == Decimal("30003.1")
    assert (coins["binancecoin"]["amount"], coins["binancecoin"]["cost_basis"]) == (Decimal("0.99"), 297)


# --- returns: GIPS time-weighted, money-weighted (IRR) -------------------------------------------------


def test_time_and_money_weighted_returns_with_a_deposit(engine: coinfolio.Engine) -> None:
    """GIPS 2.A.2 / CFA: the TWR links the sub-period returns between external flows, the MWR is
    the IRR of the flows. 100 units of x bought at 1 on 1 January (price 1 to 10 January), 1.2
    from 11 January when 100 more are bought at 1.2 (at 00:00, before that day's valuation),
    1.15 on 21 January. TWR = (120/100) × (230/240) − 1 = 15.00%. MWR (SPEC §19: yearly) solves
    100 (1+r)^(20/365) + 120 (1+r)^(10/365) = 230: r = 204.22%. roi = 10 ÷ 220 = 4.55%. GIPS
    itself never annualizes a period under a year (its IRR over these 20 days is 6.3%); SPEC §19
    decides a yearly rate."""
    first = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    for n in range(21):
        when = (first + datetime.timedelta(days=n)).strftime("%Y-%m-%dT%H:%M:%SZ")
        engine.set_price("x", "1" if n < 10 else "1.2" if n < 20 else "1.15", timestamp=when)
    engine.add_transaction("x", "buy", 100, price=1, timestamp="2024-01-01T00:00:00Z")
    engine.add_transaction("x", "buy", 100, price="1.2", timestamp="2024-01-11T00:00:00Z")
    answer = engine.performance(range=("2024-01-01", "2024-01-21"))
    assert (answer["start_value"], answer["end_value"], answer["net_flows"], answer["gain"]) == (0, 230, 220, 10)
    assert round(answer["twr"] or 0, 2) == 15.00
    assert round(answer["mwr"] or 0, 2) == 204.22
    assert round(answer["roi"] or 0, 2) == 4.55
