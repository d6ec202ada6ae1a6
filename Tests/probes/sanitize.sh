#!/usr/bin/env bash
# make sanitize: Coinfolio under the sanitizers the toolchain has for Swift on Linux.
#   1. the Swift suite under AddressSanitizer (swift test --sanitize=address)
#   2. the Swift suite under ThreadSanitizer (swift test --sanitize=thread)
#   3. the C suite (bindings/c) against an ASan build of libcoinfolio.so, leaks checked
#   4. a multi-threaded C stress test (bindings/c/stress_threads.c) against a TSan build
# UndefinedBehaviorSanitizer is not offered for Swift on Linux (swiftc accepts only address,
# thread, fuzzer and scudo there), so it is not part of this run.
# Builds go to .build/asan and .build/tsan, apart from the normal build. SANITIZE_STEPS picks
# steps ("swift-asan swift-tsan c-asan c-tsan"); SANITIZE_SWIFT_FILTER narrows the Swift suites.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
STEPS=${SANITIZE_STEPS:-"swift-asan swift-tsan c-asan c-tsan"}
CLANG=${SANITIZE_CC:-$(dirname "$(command -v swiftc)")/clang}
SWIFTLIB=$(dirname "$(command -v swiftc)")/../lib/swift/linux
export SWIFT_BACKTRACE=enable=no
# The platform's URLSession/libcurl keeps 58 bytes per request (a bare URLSession program
# does too; see README "Known limits"); that and only that is suppressed.
export LSAN_OPTIONS="suppressions=$ROOT/Tests/probes/lsan.supp:print_suppressions=1"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
FILTER=()
[ -n "${SANITIZE_SWIFT_FILTER:-}" ] && FILTER=(--filter "$SANITIZE_SWIFT_FILTER")
results=()

step() { # name, command…
    local name=$1; shift
    local started=$SECONDS
    echo "== $name"
    if "$@"; then
        results+=("$name: clean ($((SECONDS - started)) s)")
    else
        results+=("$name: FAILED ($((SECONDS - started)) s)")
    fi
}

# TSan cannot see Synchronization.Mutex's contended path (futex calls inside the uninstrumented
# libswiftSynchronization.so); Tests/probes/tsan_mutex.c adds the missing happens-before edges.
tsan_mutex_shim() {
    mkdir -p .build/tsan
    "$CLANG" -shared -fPIC -O1 -Wall Tests/probes/tsan_mutex.c -o .build/tsan/libtsan_mutex.so -ldl
    echo "$ROOT/.build/tsan/libtsan_mutex.so"
}

swift_suite() { # sanitizer
    local log=.build/sanitize-swift-$1.log
    local preload=""
    [ "$1" = thread ] && preload=$(tsan_mutex_shim)
    swift build --build-tests --sanitize="$1" --scratch-path ".build/$1" >"$log" 2>&1 || { tail -30 "$log"; return 1; }
    # Memory errors only: XCTest keeps every test case alive through a side table LSan calls a
    # leak, so leaks are judged in the C suite below, which drives the library in one process.
    if LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 swift test --skip-build --sanitize="$1" --scratch-path ".build/$1" "${FILTER[@]}" >>"$log" 2>&1; then
        grep -E "Executed [0-9]+ tests" "$log" | tail -1
    else
        grep -E "error|WARNING: ThreadSanitizer|ERROR: AddressSanitizer|SUMMARY|failed" "$log" | head -30
        return 1
    fi
}

c_suite_asan() {
    local log=.build/sanitize-c-asan.log
    swift build --product coinfolio --sanitize=address --scratch-path .build/asan >"$log" 2>&1 || { tail -30 "$log"; return 1; }
    make -s -C bindings/c clean >/dev/null
    # The tests built by the toolchain's clang with the same (shared) ASan runtime as the library.
    # The executable carries the ASan runtime (the library leaves it to the executable). The
    # tests run in one process (CF_TEST_NO_FORK) so that LeakSanitizer sees every call at exit.
    if make -C bindings/c build/test_coinfolio LIBDIR="$ROOT/.build/asan/debug" CC="$CLANG" \
        CFLAGS="-O1 -g -fsanitize=address -fno-omit-frame-pointer" \
        LDFLAGS="-fsanitize=address -L$ROOT/.build/asan/debug -Wl,-rpath,$ROOT/.build/asan/debug" >>"$log" 2>&1 &&
        CF_TEST_NO_FORK=1 bindings/c/build/test_coinfolio "$ROOT" >>"$log" 2>&1; then
        grep -E "^\[  PASSED  \]|^checks:" "$log" | tr '\n' ' ' && echo
        # What was tolerated: the platform's libcurl allocations only.
        awk '/Suppressions used:/{p=1} p && $1 ~ /^[0-9]+$/ {print "  tolerated (platform, LSan suppression): " $2 " bytes in " $1 " allocations in " $3}' "$log"
        make -s -C bindings/c clean >/dev/null
    else
        grep -E "FAIL|ERROR|SUMMARY|passed|Direct leak" "$log" | head -30
        make -s -C bindings/c clean >/dev/null
        return 1
    fi
}

c_stress_tsan() {
    local log=.build/sanitize-c-tsan.log
    swift build --product coinfolio --sanitize=thread --scratch-path .build/tsan >"$log" 2>&1 || { tail -30 "$log"; return 1; }
    mkdir -p .build/tsan/c
    "$CLANG" -std=c99 -O1 -g -fsanitize=thread -Iinclude bindings/c/stress_threads.c -L.build/tsan/debug \
        -Wl,-rpath,"$ROOT/.build/tsan/debug" -L"$SWIFTLIB" -Wl,-rpath,"$SWIFTLIB" -lcoinfolio -ldispatch -lBlocksRuntime -lpthread \
        -o .build/tsan/c/stress_threads >>"$log" 2>&1 \
        || { tail -30 "$log"; return 1; }
    if LD_PRELOAD="$(tsan_mutex_shim)" .build/tsan/c/stress_threads "$ROOT" 8 "${SANITIZE_STRESS_ITERATIONS:-300}" >>"$log" 2>&1; then
        tail -1 "$log"
    else
        grep -E "WARNING: ThreadSanitizer|SUMMARY|stress_threads|status" "$log" | head -30
        return 1
    fi
}

for name in $STEPS; do
    case $name in
    swift-asan) step "Swift suite under ASan" swift_suite address ;;
    swift-tsan) step "Swift suite under TSan" swift_suite thread ;;
    c-asan) step "C suite against an ASan libcoinfolio.so" c_suite_asan ;;
    c-tsan) step "multi-threaded C stress test under TSan" c_stress_tsan ;;
    *) echo "unknown step $name"; exit 2 ;;
    esac
done
echo "sanitize (UBSan: not available for Swift on Linux):"
printf '  %s\n' "${results[@]}"
for line in "${results[@]}"; do [[ $line == *FAILED* ]] && exit 1; done
exit 0
