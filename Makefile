# Coinfolio — the verbs people expect.
#
#   make            build libcoinfolio.so, coinfolio-cli and the C tests/example (debug)
#   make test       run the Swift, C and Python suites (each talks to the loopback test server),
#                   then their store and engine suites again on a throwaway PostgreSQL cluster
#                   (Tests/postgres/with-cluster.sh starts it and always stops it)
#   make test-postgres  only that second pass (needs COINFOLIO_TEST_POSTGRES_URL/_DIR: run it
#                   as Tests/postgres/with-cluster.sh make test-postgres)
#   make bench      build release and run the benchmarks; writes BENCHMARKS.md
#   make demo       run coinfolio-cli home against the loopback server with the committed fixtures
#   make install    install the library, header and pkg-config file under PREFIX (/usr/local)
#   make format / make lint   swift-format with .swift-format
#   make clean

PREFIX    ?= /usr/local
CONFIG    ?= debug
SWIFT     ?= swift
PYTHON    ?= python3
BUILD_DIR  = .build/$(CONFIG)
LIBRARY    = $(BUILD_DIR)/libcoinfolio.so
export COINFOLIO_LIBRARY = $(abspath $(LIBRARY))

.PHONY: all build test test-swift test-c test-python test-postgres bench demo install clean format lint

all: build
	$(MAKE) -C bindings/c all LIBDIR=$(abspath $(BUILD_DIR))

build:
	$(SWIFT) build -c $(CONFIG) --product coinfolio
	$(SWIFT) build -c $(CONFIG) --product coinfolio-cli

test: all
	Tests/postgres/with-cluster.sh $(MAKE) test-swift test-c test-python test-postgres

test-swift:
	$(SWIFT) test

test-c: all
	$(MAKE) -C bindings/c test LIBDIR=$(abspath $(BUILD_DIR))

test-python: build
	cd bindings/python && PYTHONPATH=. $(PYTHON) -m pytest -q

# The store and engine suites of every language on PostgreSQL (each test its own owner).
POSTGRES_PASS = COINFOLIO_TEST_BACKEND=postgres
test-postgres: all
	$(POSTGRES_PASS) $(SWIFT) test --filter 'StoreTests|EngineTests|PostgresTests'
	$(POSTGRES_PASS) $(MAKE) -C bindings/c test-postgres LIBDIR=$(abspath $(BUILD_DIR))
	cd bindings/python && $(POSTGRES_PASS) PYTHONPATH=. $(PYTHON) -m pytest -q tests/test_store.py tests/test_engine.py tests/test_postgres.py

bench:
	$(MAKE) build CONFIG=release
	$(MAKE) -C bench run LIBDIR=$(abspath .build/release)

demo: build
	$(PYTHON) Tests/server/demo.py $(BUILD_DIR)/coinfolio-cli

install:
	$(MAKE) build CONFIG=release
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build/release/libcoinfolio.so $(DESTDIR)$(PREFIX)/lib/
	install -m 755 .build/release/coinfolio-cli $(DESTDIR)$(PREFIX)/bin/
	install -m 644 include/coinfolio.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' coinfolio.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/coinfolio.pc

format:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

lint:
	$(SWIFT) format lint --recursive Sources Tests Package.swift

clean:
	$(SWIFT) package clean
	$(MAKE) -C bindings/c clean
	rm -rf bench/build
