# Coinfolio — the verbs people expect.
#
#   make            build libcoinfolio.so, coinfolio-cli and the C tests/example (debug)
#   make test       run the Swift, C and Python suites (each talks to the loopback test server)
#   make bench      build release and run the benchmarks; writes BENCHMARKS.md
#   make fuzz       libFuzzer over every JSON entry point and the formatters (FUZZ_SECONDS each, default 60)
#   make sanitize   the Swift suite under ASan and TSan, the C suite against an ASan library, a TSan C stress test
#   make stress     SIGKILL trials (STRESS_TRIALS, default 100), 4 writer processes, a full disk
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

.PHONY: all build test test-swift test-c test-python bench demo install clean format lint fuzz sanitize stress

all: build
	$(MAKE) -C bindings/c all LIBDIR=$(abspath $(BUILD_DIR))

build:
	$(SWIFT) build -c $(CONFIG) --product coinfolio
	$(SWIFT) build -c $(CONFIG) --product coinfolio-cli

test: all test-swift test-c test-python

test-swift:
	$(SWIFT) test

test-c: all
	$(MAKE) -C bindings/c test LIBDIR=$(abspath $(BUILD_DIR))

test-python: build
	cd bindings/python && PYTHONPATH=. $(PYTHON) -m pytest -q

bench:
	$(MAKE) build CONFIG=release
	$(MAKE) -C bench run LIBDIR=$(abspath .build/release)

fuzz:
	Tests/fuzz/run.sh

sanitize:
	Tests/probes/sanitize.sh

stress: build
	$(PYTHON) Tests/probes/stress.py --cli $(abspath $(BUILD_DIR))/coinfolio-cli --library $(abspath $(LIBRARY))

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
