#!/bin/sh
# Examples/swift-consumer: a package that depends on Coinfolio by path builds, runs from another
# folder, and prints the statistics of our fixtures.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
swift=${SWIFT:-swift}
"$swift" build --package-path "$repo/Examples/swift-consumer" -q
out=$(cd / && "$repo/Examples/swift-consumer/.build/debug/swift-consumer")
expected='Market Cap: $2.58Tr (+1.20%)
24h Volume: $342.00Bn
BTC Dominance: 42.50%
Portfolio Value: $28,500.06 (+2.15%)
Unrealized P&L: n/a
Realized P&L: $0.00'
if [ "$out" != "$expected" ]; then
    echo "test_consumer: swift-consumer printed:" >&2
    echo "$out" >&2
    exit 1
fi
echo "test_consumer: Examples/swift-consumer builds against Coinfolio by path and prints the statistics"
