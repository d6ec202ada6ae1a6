#!/bin/sh
# Examples/swift-consumer: a package that depends on Coinfolio by path builds, runs from another
# folder, and shows the home screen of our fixtures through HomeModel: statistics, portfolio, a
# search, an order.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
swift=${SWIFT:-swift}
"$swift" build --package-path "$repo/Examples/swift-consumer" -q
out=$(cd / && "$repo/Examples/swift-consumer/.build/debug/swift-consumer")
# The last line counts the redraws Observation asked for: at least one, how many depends on how
# the updates interleave.
redraws=$(printf '%s\n' "$out" | tail -n 1)
out=$(printf '%s\n' "$out" | sed '$d')
expected='Market Cap: $2.58Tr (+1.20%)
24h Volume: $342.00Bn
BTC Dominance: 42.50%
Portfolio Value: $28,500.06 (+2.15%)
Unrealized P&L: n/a
Realized P&L: $0.00
portfolio:
  BTC 0.5 = $28,500.06
search "eth":
  2 Ethereum $3,928.55
  3 Tether $1.0002
  5 WETH $3,927.90
  7 Binance-Peg WETH $3,931.02
by price:
  1 Bitcoin $57,000.123
  7 Binance-Peg WETH $3,931.02
  2 Ethereum $3,928.55
  5 WETH $3,927.90
  3 Tether $1.0002'
if [ "$out" != "$expected" ] || ! printf '%s\n' "$redraws" | grep -Eq '^observed changes: [1-9][0-9]*$'; then
    echo "test_consumer: swift-consumer printed:" >&2
    echo "$out" >&2
    echo "$redraws" >&2
    exit 1
fi
echo "test_consumer: Examples/swift-consumer builds against Coinfolio by path and shows the home screen through HomeModel"
