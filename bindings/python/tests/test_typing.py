"""The package is typed (SPEC §15): ``mypy --strict`` is clean over ``coinfolio`` and the examples,
and every answer has exactly the keys and value types of its TypedDict in ``coinfolio.answers``
(a key the library adds, or a type that changes, fails here until the TypedDict says so).
"""

from __future__ import annotations

import decimal
import importlib.util
import json
import subprocess
import sys
from typing import Any, Dict, List, Union, get_args, get_origin, get_type_hints

import pytest

import coinfolio
from coinfolio import answers

from conftest import FIXTURES, PACKAGE_ROOT, REPO, LoopbackServer

# --- mypy ----------------------------------------------------------------------------------------


def test_mypy_strict_is_clean_over_the_package_and_examples() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (python3 -m pip install mypy): the --strict check did not run")
    cache = REPO / ".build" / "mypy-cache"  # .build/ is the build outputs' folder, never committed
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "coinfolio", "examples"],
        cwd=PACKAGE_ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_py_typed_marks_the_package_typed() -> None:
    assert (PACKAGE_ROOT / "coinfolio" / "py.typed").is_file()
    pyproject = (PACKAGE_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'coinfolio = ["py.typed"]' in pyproject


# --- answers against their TypedDicts ------------------------------------------------------------


def conform(value: Any, expected: Any, where: str = "answer") -> None:
    """Asserts that ``value`` (parsed JSON) has the type ``expected`` exactly: a TypedDict's
    required keys all present, no key it does not list, every value of its declared type."""
    origin = get_origin(expected)
    if hasattr(expected, "__required_keys__"):  # a TypedDict
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        hints = get_type_hints(expected)
        missing = set(expected.__required_keys__) - set(value)
        unknown = set(value) - set(hints)
        assert not missing, f"{where}: keys {sorted(missing)} of {expected.__name__} are missing"
        assert not unknown, f"{where}: keys {sorted(unknown)} are not in {expected.__name__}"
        for key, item in value.items():
            conform(item, hints[key], f"{where}.{key}")
    elif origin is Union:
        failures = []
        for option in get_args(expected):
            try:
                conform(value, option, where)
                return
            except AssertionError as error:
                failures.append(str(error))
        raise AssertionError(f"{where}: {value!r} is none of {expected}: {failures}")
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        (item_type,) = get_args(expected)
        for index, item in enumerate(value):
            conform(item, item_type, f"{where}[{index}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        key_type, item_type = get_args(expected)
        for key, item in value.items():
            conform(key, key_type, f"{where} key")
            conform(item, item_type, f"{where}[{key!r}]")
    elif expected is type(None):
        assert value is None, f"{where}: {value!r} is not None"
    elif expected is decimal.Decimal:  # an exact ledger number
        assert isinstance(value, decimal.Decimal), f"{where}: {value!r} is not a Decimal"
    elif expected is float:  # JSON numbers: ints are floats to a type checker too
        assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{where}: {value!r} is not a number"
    elif expected is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r} is not an int"
    elif expected in (str, bool):
        assert isinstance(value, expected), f"{where}: {value!r} is not a {expected.__name__}"
    else:  # pragma: no cover - a type this checker does not know
        raise AssertionError(f"{where}: no check for {expected!r}")


def test_the_checker_refuses_missing_unknown_and_mistyped_keys() -> None:
    holding = {"coin_id": "bitcoin", "amount": 0.5}
    conform(holding, answers.Holding)
    with pytest.raises(AssertionError, match="missing"):
        conform({"coin_id": "bitcoin"}, answers.Holding)
    with pytest.raises(AssertionError, match="not in Holding"):
        conform({**holding, "note": ""}, answers.Holding)
    with pytest.raises(AssertionError, match="not a number"):
        conform({**holding, "amount": "0.5"}, answers.Holding)
    statistic = {"title": "Market Cap", "value": "$2.58Tr", "percentage_change": None}
    conform(statistic, answers.Statistic)
    conform({**statistic, "coverage": 0.5}, answers.Statistic)


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def bodies(name: str) -> Dict[str, str]:
    """The fixture files that map an id to a recorded body."""
    return {key: json.dumps(body) for key, body in json.loads(read(name)).items()}


def test_decode_outputs_are_their_typeddicts() -> None:
    conform(coinfolio.decode_markets(read("markets.json")), answers.DecodedMarkets, "decode_markets")
    bad = coinfolio.decode_markets(read("markets-bad-elements.json"))
    assert bad["skipped"] and bad["warnings"]
    conform(bad, answers.DecodedMarkets, "decode_markets(bad elements)")
    conform(coinfolio.decode_global(read("global.json")), answers.DecodedGlobal, "decode_global")
    warned = coinfolio.decode_global('{"data":{"total_market_cap":{"usd":"12abc","eur":1},"markets":"x"}}')
    assert warned["warnings"]
    conform(warned, answers.DecodedGlobal, "decode_global(warnings)")
    for coin_id, body in bodies("details.json").items():
        conform(coinfolio.decode_coin_detail(body), answers.DecodedCoinDetail, f"decode_coin_detail({coin_id})")
    for coin_id, body in bodies("market_charts.json").items():
        conform(coinfolio.decode_market_chart(body), answers.DecodedMarketChart, f"decode_market_chart({coin_id})")
    gaps = coinfolio.decode_market_chart('{"prices":[[1000,1.5],[2000,null],["x",1]],"market_caps":[]}')
    assert gaps["warnings"]
    conform(gaps, answers.DecodedMarketChart, "decode_market_chart(gaps)")


def test_store_and_offline_engine_answers_are_their_typeddicts() -> None:
    with coinfolio.Store(":memory:") as store:
        store.set_holding("bitcoin", 0.5)
        conform(store.holdings(), List[answers.Holding], "holdings")
    with coinfolio.Engine() as engine:
        engine.set_holding("bitcoin", 0.5)
        engine.set_holding("tether", 100)
        engine.set_holding("not-in-the-snapshot", 2)
        conform(engine.portfolio(), answers.PortfolioAnswer, "portfolio(no snapshot)")
        engine.load(read("markets.json"), read("global.json"))
        conform(engine.coins(), answers.CoinsAnswer, "coins")
        conform(engine.coins(sparkline=True, limit=3), answers.CoinsAnswer, "coins(sparkline)")
        portfolio = engine.portfolio(sparkline=True)
        assert [coin["price_available"] for coin in portfolio["coins"]].count(False) == 1
        conform(portfolio, answers.PortfolioAnswer, "portfolio")
        statistics = engine.statistics()
        assert "coverage" in statistics[3]
        conform(statistics, List[answers.Statistic], "statistics")
        conform(engine.portfolio_history(), answers.PortfolioHistory, "portfolio_history")
        conform(engine.coin_statistics("bitcoin"), answers.CoinStatistics, "coin_statistics")
        conform(engine.metrics(), answers.EngineMetrics, "metrics")


def test_network_answers_are_their_typeddicts(server: LoopbackServer) -> None:
    api = {"base_url": server.base_url, "timeout_ms": 5000, "max_retries": 0}
    with coinfolio.Client(**api) as client:
        conform(client.markets(ids=["bitcoin", "ethereum"]), answers.DecodedMarkets, "Client.markets")
        conform(client.global_data(), answers.DecodedGlobal, "Client.global_data")
        conform(client.coin_detail("bitcoin"), answers.DecodedCoinDetail, "Client.coin_detail")
        conform(client.market_chart("bitcoin", days=7), answers.DecodedMarketChart, "Client.market_chart")
        conform(client.simple_price(["bitcoin", "ethereum"]), answers.SimplePrices, "Client.simple_price")
    progress: List[Any] = []
    with coinfolio.Engine(api=api) as engine:
        engine.set_progress(progress.append)
        engine.set_holding("bitcoin", 0.5)
        conform(engine.refresh(), answers.RefreshSummary, "refresh")
        conform(engine.refresh_prices(), answers.RefreshSummary, "refresh_prices")
        conform(engine.coin_detail("bitcoin"), answers.CoinDetailScreen, "coin_detail")
        conform(engine.chart("bitcoin"), answers.PriceChart, "chart")
        conform(engine.chart("bitcoin", days="max"), answers.PriceChart, "chart(max)")
        conform(engine.metrics(), answers.EngineMetrics, "metrics")
    assert progress
    conform(progress, List[answers.Progress], "progress")


def test_ledger_answers_are_their_typeddicts() -> None:
    with coinfolio.Engine() as engine:
        engine.load(read("markets.json"))
        conform(engine.add_transaction("bitcoin", "buy", 1, price=100, fee=1, timestamp="2024-01-01T00:00:00Z"),
                answers.Transaction, "add_transaction(buy)")
        engine.add_transaction("bitcoin", "sell", "0.5", price=300, timestamp="2024-01-03T00:00:00Z", external_id="x-1")
        conform(engine.add_transaction("ethereum", "transfer_in", "2", note="from a wallet"),
                answers.Transaction, "add_transaction(transfer_in)")
        conform(engine.transactions(), answers.TransactionsAnswer, "transactions")
        for method in ("fifo", "lifo", "average"):
            conform(engine.pnl(method=method), answers.PnLAnswer, f"pnl({method})")
        engine.create_portfolio("savings", vs_currency="eur")
        conform(engine.portfolios(), List[answers.PortfolioInfo], "portfolios")
        csv = engine.export_csv()
        assert isinstance(csv, str)
        conform(engine.import_csv(csv), answers.ImportSummary, "import_csv")
        samples = REPO / "Tests" / "fixtures" / "imports"
        conform(engine.import_file(samples / "coinbase-v4.csv", dry_run=True), answers.ImportAnswer, "import_file(dry_run)")
        conform(engine.import_file(samples / "coinbase-v4.csv"), answers.ImportAnswer, "import_file")
        conform(engine.import_file(samples / "kraken-ledgers.csv", portfolio="savings"), answers.ImportAnswer, "import_file(kraken)")
        conform(engine.statistics(), List[answers.Statistic], "statistics(with a ledger)")
        conform(engine.portfolio(portfolio="savings"), answers.PortfolioAnswer, "portfolio(savings)")
