#!/usr/bin/env bash
# make fuzz: builds the libFuzzer harness (swiftc -sanitize=fuzzer,address over the core, the ABI
# thunks and FuzzMain.swift), then runs every target for FUZZ_SECONDS (default 60) from the
# committed seed corpus with the JSON dictionary, and prints the counts. Targets run side by side,
# FUZZ_JOBS at a time (default: one per core, `nproc`), each for its own FUZZ_SECONDS; their
# reports print in the order the targets are listed. A crash, a leak or an oracle failure stops
# that target with the reproducer saved under .build/fuzz/artifacts/, and the run exits non-zero.
#
#   FUZZ_SECONDS=15 Tests/fuzz/run.sh                 all targets
#   FUZZ_TARGETS="decode_markets format" Tests/fuzz/run.sh
#   FUZZ_JOBS=1 Tests/fuzz/run.sh                     one target at a time
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SECONDS_EACH=${FUZZ_SECONDS:-60}
JOBS=${FUZZ_JOBS:-$(nproc)}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_JOBS must be a positive count, not '$JOBS'"; exit 2; }
TARGETS=${FUZZ_TARGETS:-"decode_markets decode_global decode_coin_detail decode_market_chart chart_svg engine_load engine_open client_open engine_query markets_request format ledger_add ledger_group ledger_csv ledger_query snapshot_open import_coinbase import_binance import_kraken import_cointracking import_koinly price_input"}
OUT=$ROOT/.build/fuzz
SWIFTC=${SWIFTC:-swiftc}
mkdir -p "$OUT/artifacts" "$OUT/work"

sources_newer() { [ ! -e "$1" ] || [ -n "$(find Sources Tests/fuzz include -newer "$1" \( -name '*.swift' -o -name '*.h' -o -name '*.cpp' \) | head -1)" ]; }

build() {
    local FLAGS=(-sanitize=fuzzer,address -O -g -parse-as-library -swift-version 6 -module-cache-path "$OUT/module-cache")
    # The C targets the core imports, as SwiftPM would give them: Debian's SQLite and libpq as
    # system modules, and the simdjson scanner (C++) compiled with the same sanitizers.
    local PQ_INCLUDE
    PQ_INCLUDE=$(pkg-config --variable=includedir libpq)
    mkdir -p "$OUT/CSimdJSON"
    printf 'module CSimdJSON {\n    header "%s"\n    export *\n}\n' "$ROOT/Sources/CSimdJSON/include/CSimdJSON.h" \
        > "$OUT/CSimdJSON/module.modulemap"
    "${CLANGXX:-clang++}" -fsanitize=fuzzer-no-link,address -O2 -g -std=c++17 -fPIC -I Sources/CSimdJSON/include \
        -c Sources/CSimdJSON/markets.cpp -o "$OUT/CSimdJSON.o"
    local CMODULES=(-I Sources/CSQLite -I Sources/CPostgres -I "$OUT/CSimdJSON" -Xcc "-I$PQ_INCLUDE")
    # The core, as one object with its module interface.
    "$SWIFTC" "${FLAGS[@]}" -wmo -c -module-name Coinfolio -emit-module -emit-module-path "$OUT/Coinfolio.swiftmodule" \
        "${CMODULES[@]}" $(find Sources/Coinfolio -name '*.swift' | sort) -o "$OUT/Coinfolio.o"
    # The ABI thunks, then the harness, linked with libFuzzer's main.
    "$SWIFTC" "${FLAGS[@]}" -wmo -c -module-name CoinfolioABI -I "$OUT" "${CMODULES[@]}" \
        $(find Sources/CoinfolioABI -name '*.swift' | sort) -o "$OUT/CoinfolioABI.o"
    "$SWIFTC" "${FLAGS[@]}" -module-name CoinfolioFuzz -I "$OUT" "${CMODULES[@]}" -I Tests/fuzz/CFuzz -Xcc -Iinclude \
        Tests/fuzz/FuzzMain.swift Tests/fuzz/FuzzImport.swift Tests/fuzz/FuzzLedger.swift "$OUT/Coinfolio.o" "$OUT/CoinfolioABI.o" "$OUT/CSimdJSON.o" \
        -lsqlite3 -lpq -lsimdjson -lstdc++ -ljansson -o "$OUT/coinfolio-fuzz"
}

if sources_newer "$OUT/coinfolio-fuzz"; then
    echo "building the fuzz harness (swiftc -sanitize=fuzzer,address; log in $OUT/build.log)"
    if ! build >"$OUT/build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$OUT/build.log" | tail -40
        echo "fuzz: the harness did not build"
        exit 1
    fi
fi

# One target's run; its exit status goes to $OUT/$target.rc when it ends.
run_target() {
    local target=$1
    local corpus_seed="Tests/fuzz/corpus/$target"
    local corpus_work="$OUT/work/$target"
    local rc=0
    mkdir -p "$corpus_work"
    # New inputs go to the work folder (not committed); the seeds are read from the repository.
    # (This runs in its own subshell: the cd stays here, and the fuzzer is its direct child.)
    cd "$OUT/work"
    COINFOLIO_FUZZ_TARGET=$target COINFOLIO_FUZZ_FIXTURES="$ROOT/Tests/fixtures/coingecko" \
        ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 LSAN_OPTIONS=suppressions="$ROOT/Tests/fuzz/lsan.supp" SWIFT_BACKTRACE=enable=no \
        "$OUT/coinfolio-fuzz" -max_total_time="$SECONDS_EACH" -dict="$ROOT/Tests/fuzz/json.dict" -max_len=8192 \
        -timeout=10 -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$target-" \
        "$corpus_work" "$ROOT/$corpus_seed" >"$OUT/$target.log" 2>&1 || rc=$?
    echo "$rc" >"$OUT/$target.rc.tmp"
    mv "$OUT/$target.rc.tmp" "$OUT/$target.rc"
}

# One target's report, once it has ended.
status=0
summary=()
report() {
    local target=$1
    local log="$OUT/$target.log"
    echo "== $target: ${SECONDS_EACH} s"
    if [ "$(cat "$OUT/$target.rc")" != 0 ]; then
        status=1
        echo "   FAILED: see $log and $OUT/artifacts/"
        grep -E "ERROR|coinfolio-fuzz|SUMMARY|Test unit written" "$log" | head -20 || true
    fi
    local runs line
    runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' | tail -1 || true)
    line=$(grep -E "^coinfolio-fuzz $target:" "$log" | tail -1 || true)
    echo "   ${line:-no counts (see $log)}"
    summary+=("$target ${runs:-?}")
}

read -r -a ORDER <<<"$TARGETS"
for target in "${ORDER[@]}"; do rm -f "$OUT/$target.rc"; done
workers=()
# An interrupted run stops the targets it started.
stop() {
    local worker
    for worker in "${workers[@]}"; do pkill -TERM -P "$worker" 2>/dev/null || true; done
    exit 130
}
trap stop INT TERM
next=0
for target in "${ORDER[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    run_target "$target" &
    workers+=("$!")
    # Reports of the targets that have ended, in the listed order.
    while [ $next -lt ${#ORDER[@]} ] && [ -e "$OUT/${ORDER[$next]}.rc" ]; do
        report "${ORDER[$next]}"
        next=$((next + 1))
    done
done
while [ $next -lt ${#ORDER[@]} ]; do
    if [ -e "$OUT/${ORDER[$next]}.rc" ]; then
        report "${ORDER[$next]}"
        next=$((next + 1))
    elif [ -z "$(jobs -rp)" ]; then
        # Its worker ended without leaving a status (killed from outside): a failure.
        echo 1 >"$OUT/${ORDER[$next]}.rc"
    else
        wait -n || true
    fi
done
wait

total=0
for entry in "${summary[@]}"; do
    n=${entry##* }
    [[ $n =~ ^[0-9]+$ ]] && total=$((total + n))
done
echo "fuzz: ${#summary[@]} targets, $total inputs in total, $([ $status = 0 ] && echo 'no crash, no leak, no oracle failure' || echo 'FAILURES above')"
exit $status
