"""One key list per wire shape (issue 23 §2): every JSON answer's keys are declared once in Swift,
as an ``enum …: String, WireKeys`` the writer uses (``w.key(JSONKey.asOf)``), and each TypedDict
of ``coinfolio.answers`` lists exactly those keys. This reads the Swift declarations and compares;
a key added to a shape fails here until its TypedDict has it (and the reverse)."""
from __future__ import annotations

import re
from typing import Dict, List, Set, Tuple, get_type_hints

import pytest

from coinfolio import answers, errors
from conftest import REPO

SOURCES = REPO / "Sources" / "Coinfolio"


def _cases(body: str) -> List[str]:
    """The raw values of an enum body's cases: ``case a, b = "x"`` gives ["a", "x"]."""
    values: List[str] = []
    for statement in re.findall(r"\bcase\s+([^\n]+)", body):
        statement = statement.split("//", 1)[0]
        for item in statement.split(","):
            item = item.strip()
            if not item:
                continue
            raw = re.fullmatch(r'`?(\w+)`?\s*=\s*"([^"]*)"', item)
            values.append(raw.group(2) if raw else item.strip("`"))
    return values


def swift_key_lists() -> Dict[str, List[str]]:
    """Every ``enum Name: String, WireKeys { … }`` of the core, by ``Owner.Name`` (the type the
    enclosing ``extension`` or declaration names), in declaration order."""
    found: Dict[str, List[str]] = {}
    for path in sorted(SOURCES.rglob("*.swift")):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^( *)(?:public\s+)?enum\s+(\w+)\s*:\s*String,[^{]*\bWireKeys\b[^{]*\{", text, re.M):
            if match.group(1):  # nested: named after the type the enclosing declaration names
                owners = re.findall(
                    r"^(?:public\s+)?(?:extension|struct|enum|final class|class)\s+([\w.]+)", text[: match.start()], re.M
                )
                assert owners, f"{path}: the enum {match.group(2)} is declared outside a type"
                name = f"{owners[-1]}.{match.group(2)}"
            else:
                name = match.group(2)
            depth, end = 1, match.end()
            while depth:
                depth += {"{": 1, "}": -1}.get(text[end], 0)
                end += 1
            assert name not in found, f"{name} is declared twice"
            found[name] = _cases(text[match.end() : end - 1])
    return found


#: Each TypedDict of coinfolio.answers and the Swift key lists whose union is its keys.
SHAPES: Dict[str, Tuple[str, ...]] = {
    "ROI": ("Coin.ROI.JSONKey",),
    "Sparkline": ("Coin.SparklineKey",),
    "Coin": ("Coin.JSONKey",),
    "ListedCoin": ("Coin.JSONKey", "CoinListing.CoinKey"),
    "PortfolioCoin": ("Coin.JSONKey", "Portfolio.CoinKey"),
    "SkippedElement": ("MarketsPage.SkippedKey",),
    "DecodeWarning": ("DecodeWarning.JSONKey",),
    "DecodedMarkets": ("MarketsPage.JSONKey",),
    "MarketData": ("MarketData.JSONKey",),
    "DecodedGlobal": ("MarketData.AnswerKey",),
    "CoinDetail": ("CoinDetail.JSONKey",),
    "DecodedCoinDetail": ("CoinDetail.AnswerKey",),
    "ChartWarning": ("MarketChart.WarningKey",),
    "DecodedMarketChart": ("MarketChart.JSONKey",),
    "Holding": ("Holding.JSONKey",),
    "HoldingsAnswer": ("Holding.AnswerKey",),
    "Statistic": ("Statistic.JSONKey",),
    "StatisticsAnswer": ("Statistic.AnswerKey",),
    "CoinsAnswer": ("CoinListing.JSONKey", "Freshness.JSONKey"),
    "PortfolioAnswer": ("Portfolio.JSONKey", "Freshness.JSONKey"),
    "CoinDetailScreen": ("CoinDetailScreen.JSONKey", "Freshness.JSONKey - fetched_at"),
    "CoinStatistics": ("CoinStatistics.JSONKey",),
    "HTTPRequests": ("Endpoint",),
    "EngineMetrics": ("EngineMetrics.JSONKey",),
    "RefreshSummary": ("RefreshSummary.JSONKey", "Freshness.JSONKey"),
    "ChartSummary": ("ChartSummary.JSONKey",),
    "PriceChart": ("PriceChart.JSONKey",),
    "PortfolioHistory": ("PortfolioHistory.JSONKey",),
    "SimplePrice": ("SimplePrice.JSONKey",),
    "SimplePrices": ("SimplePrices.JSONKey",),
    "Progress": ("WorkProgress.JSONKey",),
    "Transaction": ("Transaction.JSONKey",),
    "TransactionsAnswer": ("TransactionPage.JSONKey",),
    "TransactionGroup": ("TransactionGroup.JSONKey",),
    "CoinPnL": ("CoinPnL.JSONKey",),
    "PnLTotals": ("PnLReport.TotalsKey",),
    "PnLAnswer": ("PnLReport.JSONKey",),
    "PortfolioInfo": ("PortfolioInfo.JSONKey",),
    "PortfoliosAnswer": ("PortfolioInfo.AnswerKey",),
    "ImportSummary": ("ImportSummary.JSONKey",),
    "RealizedRow": ("RealizedRow.JSONKey",),
    "RealizedTotals": ("RealizedTotals.JSONKey",),
    "IncomeRow": ("IncomeRow.JSONKey",),
    "RealizedAnswer": ("RealizedReport.JSONKey",),
    "BenchmarkChange": ("BenchmarkChange.JSONKey",),
    "MissingPrices": ("MissingPrices.JSONKey",),
    "PerformanceAnswer": ("PerformanceReport.JSONKey",),
    "ImportNotice": ("ImportNotice.JSONKey",),
    "UnknownSymbol": ("UnknownSymbol.JSONKey",),
    "ImportAnswer": ("ImportReport.JSONKey",),
    "PriceAt": ("HistoricalPrice.JSONKey",),
    "MissingPrice": ("PriceFill.MissingKey",),
    "PriceFill": ("PriceFill.JSONKey",),
}

#: Swift key lists of shapes Python receives but has no TypedDict for: the error object (read
#: into ``CoinfolioError``'s attributes, checked below) and the envelope CoinGecko's ``/global``
#: body is read from.
NOT_TYPED = {"CoinfolioError.JSONKey", "CoinGeckoBody.GlobalKey"}
#: Swift key lists the binding repeats as an Enum rather than a TypedDict, same keys, same order.
ENUMS = {"CoinfolioError.DetailKey": errors.DetailKey}


def keys_of(lists: Dict[str, List[str]], spec: str) -> Set[str]:
    """The keys a SHAPES entry names: a list, or ``List - key`` for a list without one key."""
    name, _, without = spec.partition(" - ")
    keys = set(lists[name])
    if without:
        assert without in keys, f"{spec}: {name} has no {without}"
        keys.discard(without)
    return keys


def typed_dict_keys(name: str) -> Set[str]:
    shape = getattr(answers, name)
    return set(get_type_hints(shape))


def test_every_answer_typeddict_has_a_swift_key_list() -> None:
    typed = {name for name in answers.__all__ if hasattr(getattr(answers, name), "__required_keys__")}
    assert typed == set(SHAPES), (
        f"TypedDicts without a Swift key list here: {sorted(typed - set(SHAPES))}; "
        f"entries for shapes answers.py lacks: {sorted(set(SHAPES) - typed)}"
    )


def test_every_swift_key_list_is_read_here() -> None:
    lists = swift_key_lists()
    used = {spec.partition(" - ")[0] for specs in SHAPES.values() for spec in specs}
    assert len(lists) >= 30, f"the Swift key lists did not parse: {sorted(lists)}"
    assert not used - set(lists), f"key lists named here but not declared in Swift: {sorted(used - set(lists))}"
    unread = set(lists) - used - NOT_TYPED - set(ENUMS)
    assert not unread, f"Swift key lists no TypedDict is checked against (add them to SHAPES): {sorted(unread)}"


@pytest.mark.parametrize("name", sorted(ENUMS))
def test_each_key_enum_is_its_swift_list(name: str) -> None:
    assert [key.value for key in ENUMS[name]] == swift_key_lists()[name], (
        f"{ENUMS[name].__name__}, in order, is Swift's {name}: add each new key to both"
    )


def test_the_error_objects_keys_are_the_exceptions_attributes() -> None:
    error = errors.error_for_status(1, "invalid_argument", "m", {"reason": "comma"})
    for key in swift_key_lists()["CoinfolioError.JSONKey"]:
        assert hasattr(error, key), f"CoinfolioError has no attribute {key}"


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_typeddict_has_exactly_its_swift_keys(name: str) -> None:
    lists = swift_key_lists()
    swift: Set[str] = set()
    for spec in SHAPES[name]:
        keys = keys_of(lists, spec)
        assert not swift & keys, f"{spec} repeats keys of another list of {name}: {swift & keys}"
        swift |= keys
    typed = typed_dict_keys(name)
    assert typed == swift, (
        f"answers.{name} has {sorted(typed - swift)} that Swift's {' + '.join(SHAPES[name])} lack, "
        f"and lacks {sorted(swift - typed)}"
    )
