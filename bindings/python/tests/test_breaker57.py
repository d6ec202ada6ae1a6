"""Breaker 57: fifo, lifo, hifo, lofo and average cost basis (SPEC §12, §16, §19) and `performance`
(§19) against an independent reference in fractions.Fraction written from the SPEC's definitions:
random ledgers of 2–4 coins over 2019–2025 (leap days and anniversaries included) with fees paid in
BNB (given or from stored prices), trades, income, transfers and moves between two portfolios
(with network fees), then one test per confirmed finding with its expected value worked by hand.
Random comparisons are to 28 significant digits (the engine's decimals hold 38); the findings are
exact."""

from __future__ import annotations

import calendar
import datetime
import math
import random
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction as F
from typing import Any, Dict, List, Tuple

import pytest

import coinfolio

# --- the reference -----------------------------------------------------------------------------------

UTC = datetime.timezone.utc

def dec(x: F) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    # exact when it terminates (all ours do)
    k = 0
    while (10 ** k) % x.denominator:
        k += 1
        assert k < 60, x
    s = str(abs(x.numerator) * (10 ** k // x.denominator))
    s = s.rjust(k + 1, "0")
    s = s[:-k] + "." + s[-k:]
    s = s.rstrip("0").rstrip(".")
    return ("-" if x < 0 else "") + s

def round18(x: F) -> F:
    """half-even to 18 fraction digits"""
    q = x * 10**18
    n = q.numerator // q.denominator
    r = q - n
    if r > F(1, 2) or (r == F(1, 2) and n % 2 == 1):
        n += 1
    return F(n, 10**18)

def ts(t: datetime.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")

def anniversary(d: datetime.date, n: int) -> datetime.date:
    y = d.year + n
    last = calendar.monthrange(y, d.month)[1]
    return datetime.date(y, d.month, min(d.day, last))

class Lot:
    __slots__ = ("units", "cost", "acq", "seq", "arr")
    def __init__(self, units, cost, acq, seq, arr=0):
        self.units, self.cost, self.acq, self.seq, self.arr = units, cost, acq, seq, arr
    def unit_cost(self):
        return F(0) if self.cost is None else self.cost / self.units

class Coin:
    def __init__(self):
        self.realized = F(0); self.sold = F(0); self.sold_known = F(0)
        self.fees = F(0); self.income = F(0); self.income_units = F(0)
        self.lots: List[Lot] = []
        self.K = F(0); self.C = F(0); self.U = F(0)   # average pools
        self.Kacq = None

class Ref:
    def __init__(self, method: str, long_years=1, tax_free=None):
        self.method = method; self.long_years = long_years; self.tax_free = tax_free
        self.coins: Dict[Tuple[str, str], Coin] = defaultdict(Coin)
        self.rows: Dict[str, List[dict]] = defaultdict(list)
        self.income_rows: Dict[str, List[dict]] = defaultdict(list)
        self.seq = 0

    def held(self, pf, coin):
        c = self.coins[(pf, coin)]
        if self.method == "average":
            return c.K + c.U
        return sum((l.units for l in c.lots), F(0))

    # acquisitions
    def acquire(self, pf, coin, units, cost, t):
        self.seq += 1
        c = self.coins[(pf, coin)]
        if self.method == "average":
            if c.K + c.U == 0:
                c.K = c.C = c.U = F(0)
            if cost is None:
                c.U += units
            else:
                c.K += units; c.C += cost
        else:
            c.lots.append(Lot(units, cost, t, self.seq))

    def order(self, lots):
        if self.method == "fifo":
            return sorted(lots, key=lambda l: (l.acq, l.seq, l.arr))
        if self.method == "lifo":
            return sorted(lots, key=lambda l: (l.acq, l.seq, l.arr), reverse=True)
        if self.method == "hifo":
            return sorted(lots, key=lambda l: (-l.unit_cost(), l.acq, l.seq))
        if self.method == "lofo":
            return sorted(lots, key=lambda l: (l.unit_cost(), l.acq, l.seq))
        raise ValueError(self.method)

    def take(self, pf, coin, amount) -> List[Lot]:
        """removes amount; returns the pieces (units, cost|None, acq, seq)"""
        c = self.coins[(pf, coin)]
        assert amount <= self.held(pf, coin), (pf, coin, amount)
        if self.method == "average":
            total = c.K + c.U
            k = amount * c.K / total; u = amount - k
            cost = c.C * amount / total if c.K else F(0)
            pieces = []
            if k: pieces.append(Lot(k, cost, None, 0))
            if u: pieces.append(Lot(u, None, None, 0))
            c.K -= k; c.C -= cost; c.U -= u
            if c.K + c.U == 0:
                c.K = c.C = c.U = F(0)
            return pieces
        left = amount; pieces = []
        for lot in self.order(c.lots):
            if left == 0: break
            m = min(left, lot.units)
            part = None if lot.cost is None else (lot.cost if m == lot.units else lot.cost * m / lot.units)
            pieces.append(Lot(m, part, lot.acq, lot.seq, lot.arr))
            lot.units -= m
            if lot.cost is not None: lot.cost -= part
            left -= m
        c.lots = [l for l in c.lots if l.units > 0]
        return pieces

    def dispose(self, pf, coin, amount, proceeds, t, did):
        c = self.coins[(pf, coin)]
        pieces = self.take(pf, coin, amount)
        c.sold += amount
        for p in pieces:
            pr = proceeds * p.units / amount
            known = p.cost is not None
            if known:
                c.realized += pr - p.cost; c.sold_known += p.units
            row = dict(coin_id=coin, amount=p.units, proceeds=pr, cost=p.cost,
                       gain=(pr - p.cost) if known else None, disposed_at=ts(t), disposal_id=did)
            if p.acq is not None:
                d0, d1 = p.acq.date(), t.date()
                row.update(acquired_at=ts(p.acq), holding_days=(d1 - d0).days,
                           term="long" if d1 > anniversary(d0, self.long_years) else "short",
                           tax_free=None if self.tax_free is None else d1 > anniversary(d0, self.tax_free))
            self.rows[pf].append(row)

    # ledger operations (values are in the portfolio's currency)
    def buy(self, pf, coin, amount, price, fee_value, t):
        self.acquire(pf, coin, amount, amount * price + fee_value, t)
        self.coins[(pf, coin)].fees += fee_value

    def income(self, pf, coin, amount, price, t, itype, tid):
        self.acquire(pf, coin, amount, amount * price, t)
        c = self.coins[(pf, coin)]
        c.income += amount * price; c.income_units += amount
        self.income_rows[pf].append(dict(coin_id=coin, income_type=itype, amount=amount, value=amount * price, timestamp=ts(t), transaction_id=tid))

    def sell(self, pf, coin, amount, price, fee_value, t, did):
        self.dispose(pf, coin, amount, amount * price - fee_value, t, did)
        self.coins[(pf, coin)].fees += fee_value

    def fee_row(self, pf, coin, amount, price, t, did):
        self.dispose(pf, coin, amount, amount * price, t, did)

    def transfer_in(self, pf, coin, amount, t):
        self.acquire(pf, coin, amount, None, t)

    def transfer_out(self, pf, coin, amount):
        return self.take(pf, coin, amount)

    def move(self, src, dst, coin, amount, received, t):
        pieces = self.take(src, coin, amount)
        scaled = [round18(p.units * received / amount) for p in pieces]
        scaled[-1] = received - sum(scaled[:-1], F(0))
        for p, u in zip(pieces, scaled):
            if self.method == "average":
                self.acquire(dst, coin, u, p.cost, t)
            else:
                self.seq += 1; self.coins[(dst, coin)].lots.append(Lot(u, p.cost, p.acq, p.seq, self.seq))

    def pnl(self, pf, prices: Dict[str, F]):
        out = {}
        for (p, coin), c in self.coins.items():
            if p != pf: continue
            if self.method == "average":
                known, cost, units = c.K, c.C, c.K + c.U
            else:
                known = sum((l.units for l in c.lots if l.cost is not None), F(0))
                cost = sum((l.cost for l in c.lots if l.cost is not None), F(0))
                units = sum((l.units for l in c.lots), F(0))
            r = dict(amount=units, realized_pnl=c.realized, fees=c.fees, income=c.income)
            if units == 0:
                r["cost_basis"] = F(0)
            elif known == 0:
                r["cost_basis"] = None
            else:
                r["cost_basis"] = cost
            r["average_cost"] = cost / known if known else None
            r["breakeven_price"] = (cost - c.realized) / known if known else None
            price = prices.get(coin)
            r["current_value"] = None if price is None else units * price
            r["unrealized_pnl"] = None if (price is None or r["cost_basis"] is None) else known * price - cost
            r["cost_basis_coverage"] = known / units if units else F(1)
            r["realized_coverage"] = c.sold_known / c.sold if c.sold else F(1)
            r["income_coverage"] = F(1)
            out[coin] = r
        return out


# --- random ledgers ---

COINS = ["bitcoin", "ethereum", "solana", "cardano"]
BNB = "binancecoin"
SPECIAL = ["2020-02-29", "2021-02-28", "2021-03-01", "2024-02-29", "2025-02-28", "2025-03-01", "2023-02-28", "2023-03-01", "2022-02-28", "2022-03-01", "2019-03-01", "2020-03-01"]

def rand_amount(rng):
    d = rng.choice([0, 2, 8, 12, 18])
    return F(rng.randint(1, 10 ** rng.randint(1, 8) * 10 ** d), 10 ** d) if d else F(rng.randint(1, 50))

def rand_price(rng):
    if rng.random() < 0.05: return F(0)
    d = rng.choice([0, 2, 4, 8])
    return F(rng.randint(1, 10 ** rng.randint(1, 7) * 10 ** d), 10 ** d)

def rand_part(rng, held):
    r = rng.random()
    if r < 0.2: return held
    x = held * F(rng.randint(1, 999), 1000)
    # keep ≤ 18 fraction digits
    x = F(int(x * 10**18), 10**18)
    return x if x > 0 else held

def times(rng, n):
    out = []
    for _ in range(n):
        if rng.random() < 0.25:
            d = datetime.datetime.fromisoformat(rng.choice(SPECIAL)).replace(tzinfo=UTC)
            out.append(d + datetime.timedelta(hours=rng.randint(0, 23), minutes=rng.choice([0, 30])))
        else:
            base = datetime.datetime(2019, 1, 1, tzinfo=UTC)
            out.append(base + datetime.timedelta(hours=rng.randint(0, 6 * 365 * 24)))
    out.sort()
    for i in range(1, len(out)):
        if rng.random() < 0.1: out[i] = out[i - 1]
    return out

def build(rng, method, n=None, moves=True, tax_free=None):
    e = coinfolio.Engine(database=":memory:")
    e.create_portfolio("cold")
    ref = Ref(method, 1, tax_free)
    coins = rng.sample(COINS, rng.randint(2, 4))
    n = n or rng.randint(5, 40)
    tlist = times(rng, n)
    bnb_day: Dict[Any, F] = {}
    for t in tlist:
        if t.date() not in bnb_day and rng.random() < 0.8:
            p = rand_price(rng) or F(1)
            bnb_day[t.date()] = p
            e.set_price(BNB, dec(p), timestamp=t.date().isoformat() + "T00:00:00Z")
    log = [("price", BNB, p, t.date().isoformat() + "T00:00:00Z") for t in tlist if t.date() in bnb_day]
    log = list(dict.fromkeys(log))
    pfs = ["main", "cold"] if moves else ["main"]
    for t in tlist:
        pf = rng.choice(pfs) if rng.random() < 0.3 else "main"
        held = {c: ref.held(pf, c) for c in coins + [BNB]}
        owned = [c for c in held if held[c] > 0]
        kinds = ["buy", "buy", "income", "transfer_in", "bnb"]
        if owned: kinds += ["sell", "sell", "trade", "transfer_out"] + (["move"] if moves else [])
        kind = rng.choice(kinds)
        T = ts(t)
        def fee_args(same=False):
            """(engine kwargs, value, bnb units, price) for a fee"""
            r = rng.random()
            bnb_held = ref.held(pf, BNB)
            if r < 0.35 and bnb_held > 0:
                units = rand_part(rng, bnb_held) if rng.random() < 0.7 else bnb_held
                if same or rng.random() < 0.5 or t.date() not in bnb_day:
                    fp = rand_price(rng)
                    return dict(fee=dec(units), fee_coin_id=BNB, fee_price=dec(fp)), units * fp, units, fp
                fp = bnb_day[t.date()]
                return dict(fee=dec(units), fee_coin_id=BNB), units * fp, units, fp
            if r < 0.7:
                f = F(rng.randint(0, 10**6), 10**rng.randint(0, 6))
                return dict(fee=dec(f)), f, None, None
            return {}, F(0), None, None
        def fee_row_id(parent):
            g = parent.get("group_id")
            rows = e.transactions(portfolio=pf, group_id=g)["transactions"] if g else []
            return [r["id"] for r in rows if r["kind"] == "fee"]
        if kind in ("buy", "bnb"):
            coin = BNB if kind == "bnb" else rng.choice(coins)
            amount, price = rand_amount(rng), rand_price(rng)
            kw, fv, fu, fp = fee_args()
            if coin == BNB and fu is not None:  # keep it simple: fee of a BNB buy in fiat
                kw, fv, fu = {}, F(0), None
            tx = e.add_transaction(coin, "buy", dec(amount), price=dec(price), timestamp=T, portfolio=pf, **kw)
            ref.buy(pf, coin, amount, price, fv, t)
            if fu is not None:
                ref.fee_row(pf, BNB, fu, fp, t, fee_row_id(tx)[0])
            log.append(("buy", pf, coin, amount, price, kw, T))
        elif kind == "income":
            coin = rng.choice(coins + [BNB]); amount, price = rand_amount(rng), rand_price(rng)
            itype = rng.choice(["staking", "interest", "airdrop", "reward"])
            tx = e.add_transaction(coin, "income", dec(amount), price=dec(price), timestamp=T, portfolio=pf, income_type=itype)
            ref.income(pf, coin, amount, price, t, itype, tx["id"])
            log.append(("income", pf, coin, amount, price, T))
        elif kind == "transfer_in":
            coin = rng.choice(coins); amount = rand_amount(rng)
            e.add_transaction(coin, "transfer_in", dec(amount), timestamp=T, portfolio=pf)
            ref.transfer_in(pf, coin, amount, t)
            log.append(("transfer_in", pf, coin, amount, T))
        elif kind == "sell":
            coin = rng.choice(owned); amount = rand_part(rng, held[coin]); price = rand_price(rng)
            kw, fv, fu, fp = fee_args(coin == BNB)
            if fu is not None and coin == BNB and fu + amount > held[BNB]:
                kw, fv, fu = {}, F(0), None
            tx = e.add_transaction(coin, "sell", dec(amount), price=dec(price), timestamp=T, portfolio=pf, **kw)
            ref.sell(pf, coin, amount, price, fv, t, tx["id"])
            if fu is not None:
                ref.fee_row(pf, BNB, fu, fp, t, fee_row_id(tx)[0])
            log.append(("sell", pf, coin, amount, price, kw, T))
        elif kind == "trade":
            sent = rng.choice(owned); recv = rng.choice([c for c in coins + [BNB] if c != sent])
            sa = rand_part(rng, held[sent]); ra = rand_amount(rng); value = rand_price(rng)
            kw, fv, fu, fp = fee_args(BNB in (sent, recv))
            if fu is not None and sent == BNB and fu + sa > held[BNB]:
                kw, fv, fu = {}, F(0), None
            g = e.add_trade((sent, dec(sa)), (recv, dec(ra)), value=dec(value), timestamp=T, portfolio=pf, **kw)
            ids = {r["kind"]: r["id"] for r in g["transactions"]}
            ps, pr = round18(value / sa), round18(value / ra)
            ref.sell(pf, sent, sa, ps, F(0), t, ids["sell"])
            ref.buy(pf, recv, ra, pr, fv, t)
            if fu is not None:
                ref.fee_row(pf, BNB, fu, fp, t, ids["fee"])
            log.append(("trade", pf, sent, sa, recv, ra, value, kw, T))
        elif kind == "transfer_out":
            coin = rng.choice(owned); amount = rand_part(rng, held[coin])
            e.add_transaction(coin, "transfer_out", dec(amount), timestamp=T, portfolio=pf)
            ref.transfer_out(pf, coin, amount)
            log.append(("transfer_out", pf, coin, amount, T))
        elif kind == "move":
            coin = rng.choice(owned); amount = rand_part(rng, held[coin])
            recv = amount if rng.random() < 0.5 else rand_part(rng, amount)
            dst = "cold" if pf == "main" else "main"
            e.move(coin, dec(amount), pf, dst, received_amount=dec(recv), timestamp=T)
            ref.move(pf, dst, coin, amount, recv, t)
            log.append(("move", pf, dst, coin, amount, recv, T))
    prices = {}
    for c in coins + [BNB]:
        if rng.random() < 0.8:
            prices[c] = rand_price(rng)
            e.set_price(c, dec(prices[c]))
            log.append(("now", c, prices[c]))
    return e, ref, prices, log


def fr(x):
    return x if x is None or isinstance(x, F) else F(Decimal(str(x)))

TOL = [F(1, 10**20), F(1, 10**28)]
def close(got, exp) -> bool:
    if exp is None or got is None:
        return got is None and exp is None
    g = F(Decimal(str(got))) if not isinstance(got, F) else got
    return abs(g - exp) <= TOL[0] + abs(exp) * TOL[1]

def compare(e, ref, prices, method, pfs=("main", "cold"), tax_free=None):
    errs = []
    TOL[:] = [F(1, 10**20), F(1, 10**28)] if method != "average" else [F(1, 10**9), F(1, 10**20)]
    for pf in pfs:
        answer = e.pnl(portfolio=pf, method=method)
        coins = {c["coin_id"]: c for c in answer["coins"]}
        exp = ref.pnl(pf, prices)
        for k in ("realized_pnl", "fees", "income", "cost_basis", "current_value", "unrealized_pnl"):
            listed = {c: r for c, r in exp.items() if c in coins}  # no phantom coins
            if k in ("current_value", "unrealized_pnl", "cost_basis"):  # over held coins (none known → null)
                listed = {c: r for c, r in listed.items() if r["amount"] > 0}
                if not listed:
                    listed = {"-": {k: F(0)}}
            known = [r[k] for r in listed.values() if r[k] is not None]
            want = sum(known, F(0)) if known else (F(0) if k in ("realized_pnl", "fees", "income") else None)
            if not close(answer["totals"][k], want):
                errs.append((pf, "pnl totals", k, answer["totals"][k], want))
        for coin, r in exp.items():
            if coin not in coins:
                if r["amount"] != 0 or r["realized_pnl"] != 0:
                    errs.append((pf, coin, "missing")); 
                continue
            g = coins[coin]
            for k, v in r.items():
                gv = g.get(k)
                if k.endswith("coverage"):
                    ok = (gv is None and v is None) or (gv is not None and abs(float(gv) - float(v)) < 1e-9)
                else:
                    ok = close(gv, v)
                if not ok:
                    errs.append((pf, coin, k, gv, v))
        rep = e.realized(portfolio=pf, method=method, tax_free_after_years=tax_free)
        rows, erows = rep["rows"], ref.rows[pf]
        if method == "average":
            # compare per disposal sums
            def sums(rs):
                out = {}
                for r in rs:
                    s = out.setdefault(r["disposal_id"], [F(0), F(0), F(0), True])
                    s[0] += fr(r["amount"]); s[1] += fr(r["proceeds"])
                    if r["cost"] is not None: s[2] += fr(r["cost"])
                return out
            a, b = sums(rows), sums(erows)
            if set(a) != set(b): errs.append((pf, "disposals", sorted(a), sorted(b)))
            for k in set(a) & set(b):
                if not all(close(x, y) for x, y in zip(a[k][:3], b[k][:3])):
                    errs.append((pf, "avg disposal", k, a[k][:3], b[k][:3]))
        else:
            def merge(rs):
                out = {}
                for r in rs:
                    k = (int(r["disposal_id"]), r["acquired_at"], r["cost"] is None)
                    if k not in out:
                        out[k] = dict(r); out[k]["amount"] = F(0); out[k]["proceeds"] = F(0)
                        out[k]["cost"] = None if r["cost"] is None else F(0); out[k]["gain"] = None if r["cost"] is None else F(0)
                    m = out[k]
                    m["amount"] += fr(r["amount"]); m["proceeds"] += fr(r["proceeds"])
                    if r["cost"] is not None:
                        m["cost"] += fr(r["cost"]); m["gain"] += fr(r["gain"])
                return out
            a, b = merge(rows), merge(erows)
            if set(a) != set(b):
                errs.append((pf, "rowkeys", sorted(set(a) - set(b)), sorted(set(b) - set(a))))
            for key in sorted(set(a) & set(b)):
                g, x = a[key], b[key]
                for k, v in x.items():
                    gv = g.get(k)
                    ok = close(gv, v) if k in ("amount", "proceeds", "cost", "gain") else gv == v
                    if not ok:
                        errs.append((pf, "row", key, k, gv, v)); break
        ti = rep["income"]; ei = ref.income_rows[pf]
        if len(ti) != len(ei): errs.append((pf, "income rows", len(ti), len(ei)))
        for g, x in zip(ti, ei):
            for k, v in x.items():
                if not (close(g[k], v) if isinstance(v, F) else g[k] == v):
                    errs.append((pf, "income", k, g[k], v))
        tot = rep["totals"]
        known = [r for r in erows if r["cost"] is not None]
        exp_tot = dict(proceeds=sum((r["proceeds"] for r in erows), F(0)),
                       cost=sum((r["cost"] for r in known), F(0)),
                       gain=sum((r["gain"] for r in known), F(0)))
        if method != "average":
            exp_tot["short_term_gain"] = sum((r["gain"] for r in known if r["term"] == "short"), F(0))
            exp_tot["long_term_gain"] = sum((r["gain"] for r in known if r["term"] == "long"), F(0))
            exp_tot["taxable_gain"] = sum((r["gain"] for r in known if not r.get("tax_free")), F(0))
        for k, v in exp_tot.items():
            if not close(tot[k], v):
                errs.append((pf, "totals", k, tot[k], v))
    return errs



# --- performance ---

DAY = datetime.timedelta(days=1)

def gen(rng):
    coins = ["aaa", "bbb", "ccc"][: rng.randint(1, 3)]
    start = datetime.datetime(2019, 1, 1, tzinfo=UTC) + DAY * rng.randint(0, 365 * 5)
    if rng.random() < 0.3: start = datetime.datetime(2020, 2, 20, tzinfo=UTC)
    ndays = rng.randint(3, 40)
    prices = {}
    missing = rng.random() < 0.2
    for c in coins:
        p = F(rng.randint(100, 10000), 100)
        for n in range(ndays + 2):
            p = max(F(1, 100), p * F(rng.randint(80, 125), 100))
            p = F(round(p * 100), 100)
            if missing and rng.random() < 0.1: continue
            prices[(c, (start + DAY * n).date())] = p
    txs = []  # (time, coin, kind, amount, price, fee)
    held = {c: F(0) for c in coins}
    times = sorted(start + datetime.timedelta(hours=rng.randint(0, ndays * 24)) for _ in range(rng.randint(1, 12)))
    if rng.random() < 0.5: times[0] = start  # a transaction at from
    for t in times:
        c = rng.choice(coins)
        p = prices.get((c, t.date()))
        owned = [x for x in coins if held[x] > 0]
        kind = rng.choice(["buy", "buy", "income", "transfer_in"] + (["sell", "sell", "transfer_out"] if owned else []))
        if kind in ("sell", "transfer_out"):
            c = rng.choice(owned); p = prices.get((c, t.date()))
            amount = held[c] if rng.random() < 0.3 else F(int(held[c] * F(rng.randint(1, 99), 100) * 10**6), 10**6) or held[c]
            held[c] -= amount
        else:
            amount = F(rng.randint(1, 10**6), 10**rng.randint(0, 4))
            held[c] += amount
        mkt = p if p is not None else F(rng.randint(100, 10000), 100)
        price = F(round(mkt * F(rng.randint(90, 110), 100) * 100), 100) if kind in ("buy", "sell", "income") else None
        fee = F(rng.randint(0, 500), 100) if kind in ("buy", "sell") and rng.random() < 0.5 else F(0)
        txs.append((t, c, kind, amount, price, fee))
    frm = start
    to = start + DAY * ndays + (datetime.timedelta(hours=rng.randint(1, 23)) if rng.random() < 0.3 else datetime.timedelta(0))
    return coins, prices, txs, frm, to

def engine_of(prices, txs):
    e = coinfolio.Engine(database=":memory:")
    for (c, d), p in prices.items():
        e.set_price(c, dec(p), timestamp=d.isoformat() + "T00:00:00Z")
    for t, c, kind, amount, price, fee in txs:
        kw = dict(price=dec(price)) if price is not None else {}
        if kind == "income": kw["income_type"] = "staking"
        if fee: kw["fee"] = dec(fee)
        e.add_transaction(c, kind, dec(amount), timestamp=ts(t), **kw)
    return e

def reference(coins, prices, txs, frm, to):
    # points: from, each 00:00 in (from, to), to
    pts = [frm]
    d = datetime.datetime.combine(frm.date(), datetime.time(), UTC) + DAY
    while d < to:
        pts.append(d); d += DAY
    if to > pts[-1]: pts.append(to)
    def holdings(before):
        h = {c: F(0) for c in coins}
        for t, c, kind, amount, price, fee in txs:
            if t < before:
                h[c] += amount if kind in ("buy", "income", "transfer_in") else -amount
        return h
    def value(h, day):
        v = F(0)
        for c, a in h.items():
            if a:
                p = prices.get((c, day))
                if p is None: return None
                v += a * p
        return v
    def flow(tx):
        t, c, kind, amount, price, fee = tx
        if kind == "buy": return amount * price + fee
        if kind == "sell": return -(amount * price - fee)
        if kind in ("transfer_in", "transfer_out"):
            p = prices.get((c, t.date()))
            if p is None: return None
            return amount * p if kind == "transfer_in" else -amount * p
        return F(0)
    values = [value(holdings(p), p.date()) for p in pts]
    flows_before = []
    for p in pts:
        fs = [flow(x) for x in txs if frm <= x[0] < p]
        flows_before.append(None if None in fs else sum(fs, F(0)))
    inrange = [x for x in txs if frm <= x[0] < to]
    fs = [flow(x) for x in inrange]
    net = None if None in fs else sum(fs, F(0))
    out = dict(points=[(int(p.timestamp() * 1000), v, f) for p, v, f in zip(pts, values, flows_before)])
    sv, ev = values[0], values[-1]
    out.update(start_value=sv, end_value=ev, net_flows=net)
    out["coverage"] = sum(v is not None for v in values) / len(values)
    if sv is None or ev is None or net is None:
        return out
    out["gain"] = ev - sv - net
    inflows = sum((f for f in fs if f > 0), F(0))
    out["roi"] = None if sv + inflows == 0 else out["gain"] / (sv + inflows) * 100
    # SPEC twr: unit values, each flow buys or sells units at the value just before it. An inflow
    # at the value before its row (earlier rows of the same time included); a sell's proceeds
    # leave after the sale, so an outflow at the value of what is left plus what leaves (for a
    # transfer out that is the value before it; a sell priced away from the day's price is gain or
    # loss at that moment, never negative units). While no unit is held the unit value stays and
    # the next flow issues units at it (1 at the first flow). No unit ever held (nothing at the
    # start, no flow: income alone) is no twr.
    if all(v is not None for v in values):
        N = sv; u = F(1); ok = True; held = N != 0
        for x, f in zip(inrange, fs):
            if f == 0: continue
            # the rows before x (ties: earlier rows of the same time come before), and for an
            # outflow x itself
            h = holdings(x[0])
            for y in inrange:
                if y is x and f > 0: break
                if y[0] == x[0]:
                    h[y[1]] += y[3] if y[2] in ("buy", "income", "transfer_in") else -y[3]
                if y is x: break
            vb = value(h, x[0].date())
            if vb is None: ok = False; break  # a held coin without a price that day (not asserted)
            if f < 0: vb -= f  # the value of what is left, plus what leaves
            if N == 0:
                N = (vb + f) / u  # units issued at the unit value then
            else:
                if vb <= 0: ok = False; break
                u = vb / N
                N += f / u
            if N < 0: ok = False; break
            held = held or N != 0
        out["twr_spec"] = float(((ev / N if N > 0 else u) - 1) * 100) if ok and held else None
        out["twr_none"] = ok and not held
    # mwr: flows at their day's 00:00 (engine doc), days = (to - from)
    T = (to - frm).total_seconds() / 86400
    cfs = []
    for x, f in zip(inrange, fs):
        day0 = max(frm, datetime.datetime.combine(x[0].date(), datetime.time(), UTC))
        cfs.append((float(f), (to - day0).total_seconds() / 86400))
    out["mwr_cfs"] = (float(sv), cfs, float(ev), T)
    return out

def irr(sv, cfs, ev, T):
    def f(r):
        return sv * (1 + r) ** (T / 365) + sum(v * (1 + r) ** (d / 365) for v, d in cfs) - ev
    lo, hi = -0.9999999999, 1e12
    try:
        flo, fhi = f(lo), f(hi)
    except OverflowError:
        return "?"
    if flo * fhi > 0: return None
    for _ in range(500):
        mid = math.sqrt((lo + 1) * (hi + 1)) - 1 if lo > -0.5 else (lo + hi) / 2
        fm = f(mid)
        if (fm > 0) == (fhi > 0): hi, fhi = mid, fm
        else: lo = mid
    return lo * 100

def compare_performance(seed):
    rng = random.Random(seed)
    coins, prices, txs, frm, to = gen(rng)
    e = engine_of(prices, txs)
    a = e.performance(range=(ts(frm), ts(to)))
    r = reference(coins, prices, txs, frm, to)
    errs = []
    got_pts = [(p[0], fr(p[1]), fr(p[2])) for p in a["points"]]
    if got_pts != r["points"]:
        errs.append(("points", [(g, x) for g, x in zip(got_pts, r["points"]) if g != x][:2], len(got_pts), len(r["points"])))
    for k in ("start_value", "end_value", "net_flows", "gain"):
        if k in r and fr(a[k]) != r[k]: errs.append((k, a[k], r[k]))
    if abs(a["coverage"] - r["coverage"]) > 1e-12: errs.append(("coverage", a["coverage"], r["coverage"]))
    if r.get("roi") is not None and (a["roi"] is None or abs(a["roi"] - float(r["roi"])) > 1e-9 * max(1, abs(float(r["roi"])))):
        errs.append(("roi", a["roi"], float(r["roi"])))
    # twr by the SPEC's unit values (outflows, income before the first flow, several rows a day)
    if r.get("twr_none") and a["twr"] is not None:
        errs.append(("twr", a["twr"], None))
    if r.get("twr_spec") is not None:
        if a["twr"] is None or abs(a["twr"] - r["twr_spec"]) > 1e-7 * max(1, abs(r["twr_spec"])):
            errs.append(("twr", a["twr"], r["twr_spec"]))
    if "gain" in r and r["net_flows"] is not None:
        m = irr(*r["mwr_cfs"])
        if m != "?" and m is not None and a["mwr"] is not None and abs(a["mwr"] - m) > 1e-6 * max(1, abs(m)):
            errs.append(("mwr", a["mwr"], m))
    return errs



# --- random differentials -------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["fifo", "lifo", "hifo", "lofo", "average"])
def test_random_ledgers_match_the_reference(method: str) -> None:
    """24 ledgers per method (seeds 57000…): pnl per coin in both portfolios, realized rows per
    (disposal, lot acquisition time), totals, income rows; long_term 1 year, tax_free none/1/2."""
    for seed in range(57000, 57024):
        rng = random.Random(seed)
        tax_free = rng.choice([None, 1, 2])
        e, ref, prices, log = build(rng, method, tax_free=tax_free)
        assert compare(e, ref, prices, method, tax_free=tax_free) == [], (seed, log)


def test_random_performance_matches_the_reference() -> None:
    """80 ranges (seeds 5700…): points, start/end values, net flows, gain, roi, coverage with
    missing days, mwr (flows at their day's 00:00, as the header documents), and twr by unit
    values, each flow at the value just before it (outflows, several rows a day, income before
    the first flow; not asserted where a flow's day lacks a price)."""
    for seed in range(5700, 5780):
        assert compare_performance(seed) == [], seed


def test_the_reference_on_the_spec_examples() -> None:
    """The reference itself: §12's fifo/average/lifo example, §16's BNB fee and move examples."""
    t = [datetime.datetime(2024, 1, d, tzinfo=UTC) for d in range(1, 6)]
    for method, realized, basis in (("fifo", 246, 100), ("average", F("221.25"), F("75.25")), ("lifo", F("196.5"), F("50.5"))):
        r = Ref(method)
        r.buy("main", "btc", F(1), F(100), F(1), t[0])
        r.buy("main", "btc", F(1), F(200), F(0), t[1])
        r.sell("main", "btc", F("1.5"), F(300), F(3), t[2], "3")
        coin = r.pnl("main", {"btc": F(400)})["btc"]
        assert (coin["realized_pnl"], coin["cost_basis"]) == (realized, basis)
    for method, cold_realized, main_basis in (("fifo", 410, 350), ("hifo", 210, 150)):
        r = Ref(method)
        r.buy("main", "btc", F(2), F(100), F(0), t[0])
        r.buy("main", "btc", F(1), F(300), F(0), t[1])
        r.move("main", "cold", "btc", F("1.5"), F("1.4"), t[2])
        r.sell("cold", "btc", F("1.4"), F(400), F(0), t[3], "5")
        assert r.pnl("cold", {})["btc"]["realized_pnl"] == cold_realized
        assert r.pnl("main", {})["btc"]["cost_basis"] == main_basis
        assert r.rows["cold"][-1]["acquired_at"] == "2024-01-01T00:00:00Z"  # fifo's only lot, hifo's second
    assert anniversary(datetime.date(2020, 2, 29), 1) == datetime.date(2021, 2, 28)
    assert anniversary(datetime.date(2020, 2, 29), 4) == datetime.date(2024, 2, 29)


@pytest.mark.parametrize(
    "bought,sold,long_years,tax_free,days,term,free",
    [
        ("2020-02-29", "2021-02-28", 1, 1, 365, "short", False),
        ("2020-02-29", "2021-03-01", 1, 1, 366, "long", True),
        ("2020-02-29", "2024-02-29", 1, 4, 1461, "long", False),  # the anniversary exists in 2024
        ("2020-02-29", "2024-03-01", 1, 4, 1462, "long", True),
        ("2019-02-28", "2020-02-29", 1, 1, 366, "long", True),
        ("2020-02-29", "2022-02-28", 2, 3, 730, "short", False),
        ("2020-02-29", "2022-03-01", 2, 3, 731, "long", False),
    ],
)
def test_anniversary_rule_at_the_day_edges(bought: str, sold: str, long_years: int, tax_free: int, days: int, term: str, free: bool) -> None:
    """Passing: bought at 23:59:59, sold at 00:00:00 (UTC calendar days, not 24-hour periods)."""
    e = coinfolio.Engine(database=":memory:")
    e.add_transaction("x", "buy", "1", price="1", timestamp=bought + "T23:59:59Z")
    e.add_transaction("x", "sell", "1", price="2", timestamp=sold + "T00:00:00Z")
    row = e.realized(long_term_after_years=long_years, tax_free_after_years=tax_free)["rows"][0]
    assert (row["holding_days"], row["term"], row["tax_free"]) == (days, term, free)


def test_hostile_but_valid_inputs() -> None:
    """Passing: SPEC §12 never negative (a sell 1e-18 over, a sell before a same-time buy, a move
    before the acquisition: refused with short_by); selling exactly what is held at the same
    timestamp; price 0; 38-digit amounts realize to 38 significant digits."""
    e = coinfolio.Engine(database=":memory:")
    e.create_portfolio("cold")
    e.add_transaction("aaa", "buy", "1", price="10", timestamp="2024-01-01T00:00:00Z")
    for call in (lambda: e.add_transaction("aaa", "sell", "1.000000000000000001", price="10", timestamp="2024-01-02T00:00:00Z"),
                 lambda: e.add_transaction("bbb", "sell", "1", price="1", timestamp="2024-01-01T00:00:00Z"),
                 lambda: e.move("aaa", "0.5", "main", "cold", timestamp="2023-12-31T00:00:00Z")):
        with pytest.raises(coinfolio.InvalidArgument) as caught:
            call()
        assert set(caught.value.details) == {"coin_id", "timestamp", "short_by"}
    e.add_transaction("bbb", "buy", "1", price="1", timestamp="2024-01-01T00:00:00Z")
    e.add_transaction("bbb", "sell", "1", price="2", timestamp="2024-01-01T00:00:00Z")
    e.add_transaction("zzz", "buy", "5", price="0", timestamp="2024-02-01T00:00:00Z")
    e.set_price("zzz", "0")
    zzz = [c for c in e.pnl()["coins"] if c["coin_id"] == "zzz"][0]
    assert (zzz["cost_basis"], zzz["unrealized_pnl"], zzz["unrealized_pnl_percentage"]) == (0, 0, None)
    big, part = "12345678901234567890.123456789012345678", "4115226300411522630.041152263004115226"
    e.add_transaction("big", "buy", big, price="3.999999999999999999", timestamp="2024-02-01T00:00:00Z")
    e.add_transaction("big", "sell", part, price="7.000000000000000001", fee="0.000000000000000001", timestamp="2024-02-02T00:00:00Z")
    row = [r for r in e.realized()["rows"] if r["coin_id"] == "big"][0]
    exact = F(part) * F("7.000000000000000001") - F("1e-18") - F(part) * F("3.999999999999999999")
    assert abs(F(row["gain"]) - exact) < F(1, 10**18)
    assert [r for r in e.realized()["rows"] if r["coin_id"] == "bbb"][0]["holding_days"] == 0


# --- findings ---------------------------------------------------------------------------------------


def test_twr_outflow_at_the_value_just_before_it() -> None:
    """Failed on 7a8a3bf (a sell's outflow redeemed units at the next day's 00:00 unit value, not
    at the value just before it). SPEC §19: "each flow buys or sells units at the value just before
    it". Daily points: price 1 on 2023-01-01…06, 2 from 01-07. Buy 100 @ 1 on 01-01 (100 units at
    1); sell 50 @ 1 on 01-06 12:00 (value just before 100, unit value 1: 50 units leave); on 01-10
    the 50 coins are worth 100, unit value 2 → twr 100 (GIPS: 0 % then +100 %). Engine was 50."""
    e = coinfolio.Engine(database=":memory:")
    for n in range(1, 11):
        e.set_price("x", "1" if n <= 6 else "2", timestamp=f"2023-01-{n:02d}T00:00:00Z")
    e.add_transaction("x", "buy", "100", price="1", timestamp="2023-01-01T00:00:00Z")
    e.add_transaction("x", "sell", "50", price="1", timestamp="2023-01-06T12:00:00Z")
    answer = e.performance(range=("2023-01-01", "2023-01-10"))
    assert (answer["end_value"], answer["net_flows"], answer["gain"]) == (100, 50, 50)
    assert answer["twr"] == pytest.approx(100, abs=1e-9)


def test_twr_inflow_after_income_of_its_day() -> None:
    """Failed on 7a8a3bf, the same cause for an inflow (it bought units at the day's 00:00 unit
    value, not at the value just before it (SPEC §19, as above). Price 1 on 2023-01-01…02, 2 from 01-03.
    Buy 100 @ 1 on 01-01 (100 units); on 01-03 income 100 @ 2 at 06:00 (gain, no flow), then buy 100
    @ 2 at 12:00: the value just before is 200 coins × 2 = 400, unit value 4, the 200 buy 50 units;
    on 01-05 300 coins × 2 = 600 over 150 units = 4 → twr 300 (GIPS: +300 %, then 0 %). Engine was
    200 (it valued the day's inflow at 00:00's 200 over 100 units, before the income arrived)."""
    e = coinfolio.Engine(database=":memory:")
    for n in range(1, 6):
        e.set_price("x", "1" if n <= 2 else "2", timestamp=f"2023-01-{n:02d}T00:00:00Z")
    e.add_transaction("x", "buy", "100", price="1", timestamp="2023-01-01T00:00:00Z")
    e.add_transaction("x", "income", "100", price="2", income_type="staking", timestamp="2023-01-03T06:00:00Z")
    e.add_transaction("x", "buy", "100", price="2", timestamp="2023-01-03T12:00:00Z")
    answer = e.performance(range=("2023-01-01", "2023-01-05"))
    assert (answer["end_value"], answer["net_flows"], answer["gain"]) == (600, 300, 300)
    assert answer["twr"] == pytest.approx(300, abs=1e-9)


def test_a_same_coin_fee_without_fee_price_takes_the_stored_price() -> None:
    """fails on 7a8a3bf: SPEC §16: the fee row's price is "fee_price, else that coin's stored price
    at that time (§17's rule without its fetch step), else pending"; the engine takes the sell's
    own price first (include/coinfolio.h calls it "the rule where SPEC §16 is silent"; it is not).
    Buy 10 BNB @ 300; manual point 310 on 2024-01-02; sell 1 BNB @ 320 with fee 0.01 BNB: the fee
    row is priced 310 (value 3.1): the sell's row proceeds 316.9, the fee row's 3.1, fees 3.1.
    Engine: 320, 316.8, 3.2, 3.2. (The totals are the same either way: the fee's value moves
    between the two rows.)"""
    e = coinfolio.Engine(database=":memory:")
    e.add_transaction("binancecoin", "buy", "10", price="300", timestamp="2024-01-01T10:00:00Z")
    e.set_price("binancecoin", "310", timestamp="2024-01-02T00:00:00Z")
    e.add_transaction("binancecoin", "sell", "1", price="320", fee="0.01", fee_coin_id="binancecoin", timestamp="2024-01-02T10:00:00Z")
    assert [t["price"] for t in e.transactions()["transactions"]] == [300, 320, 310]
    assert [r["proceeds"] for r in e.realized()["rows"]] == [Decimal("316.9"), Decimal("3.1")]
    assert e.pnl()["coins"][0]["fees"] == Decimal("3.1")
    # a trade's fee in the coin it sends: the engine takes the sell leg's price (value ÷ amount =
    # 3.333333333333333333), the SPEC the stored point (100 on that day)
    e.set_price("aaa", "100", timestamp="2024-01-06T00:00:00Z")
    e.add_transaction("aaa", "buy", "2", price="10", timestamp="2024-01-01T00:00:00Z")
    group = e.add_trade(("aaa", "0.3"), ("ccc", "7"), value="1", fee="0.1", fee_coin_id="aaa", timestamp="2024-01-06T05:00:00Z")
    assert [t["price"] for t in group["transactions"] if t["kind"] == "fee"] == [Decimal("100")]


def test_realized_totals_proceeds_exact_when_the_sum_terminates() -> None:
    """fails on 7a8a3bf: totals.proceeds carries 1E-32 dust. A fee row's proceeds 148.22946703600743855
    BNB × 1052 = 155937.3993218798253546; a sell of 139,835.805… eth @ 0 fee 53646.6 → −53646.6 split
    over 3 lots by units (non-terminating pieces). Total 102290.7993218798253546 exactly (SPEC §12
    "Exact amounts"; the rows add up to it exactly, the running 38-digit sum does not). Engine:
    102290.79932187982535460000000000000001 (found by the random differential, seed 2097, fifo)."""
    e = coinfolio.Engine(database=":memory:")
    e.add_transaction("bnb", "buy", "200", price="1", timestamp="2024-01-01T00:00:00Z")
    lots = ["0.476824181358084", "55733.494639950411280333", "83101.84156629"]
    for day, units in enumerate(lots, start=2):
        e.add_transaction("eth", "buy", units, price="2", timestamp=f"2024-01-0{day}T00:00:00Z")
    e.add_transaction("ada", "buy", "1", price="454", fee="148.22946703600743855", fee_coin_id="bnb", fee_price="1052", timestamp="2024-02-01T00:00:00Z")
    e.add_transaction("eth", "sell", dec(sum((F(u) for u in lots), F(0))), price="0", fee="53646.6", timestamp="2024-03-01T00:00:00Z")
    report = e.realized()
    assert sum(F(r["proceeds"]) for r in report["rows"]) == F("102290.7993218798253546")
    assert report["totals"]["proceeds"] == Decimal("102290.7993218798253546")
