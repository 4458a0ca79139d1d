# Fresh: the front door. `make` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT ?= swift
CONFIGURATION ?= debug
BIN := .build/$(CONFIGURATION)
# Release programs carry the Swift runtime and Foundation inside (no 30-odd shared objects to
# load and resolve at every start): `fresh get` of a cache hit starts in about 2/3 of the time.
# libstdc++ and SQLite go inside too (STATIC_LIBS holds only their archives and comes first in
# the search path; fresh-reader keeps SQLite's shared object, ncursesw's search path wins
# there): the loader then resolves a few hundred symbols at start instead of 9,000
# (docs/performance.md, "fresh get start-up"). --no-export-dynamic keeps the programs' 41,000
# Swift symbols out of the dynamic symbol table: the Swift runtime's dladdr at start scans that
# table, and nothing loaded later (libcurl) needs them; a fresh hit took 0.86x the time of the
# build without it (farm-bench --vs, 100 pairs). lld with packed relocations added nothing (1.02x).
# -disable-concrete-type-metadata-mangled-name-accessors has the compiler call a type's metadata
# accessor instead of handing the runtime its mangled name: ArgumentParser's reflection of a
# command's options asks for about a hundred generic types, and each mangled name was demangled
# and its generic requirements checked by scanning every conformance record of the program
# (a fresh hit: 0.91x the time without it, farm-bench --vs, 100 pairs, both read from the disk).
# SwiftPM wrote a package's trait flags (Hummingbird's -DConfigurationSupport -DFullFoundation, defaults now off)
# in a hash set's order, and Swift seeds its hashes afresh in every process: the two flags
# swapped places at random, and then a `swift build` compiled Hummingbird again (18 s) and
# relinked the programs, one that a test was running included. Builds hash deterministically.
SWIFT_BUILD := SWIFT_DETERMINISTIC_HASHING=1 $(SWIFT) build
STATIC_LIBS := .build/static-libs
RELEASE_BUILD := mkdir -p $(STATIC_LIBS) \
	&& ln -sf $$(g++ -print-file-name=libstdc++.a) $$(gcc -print-file-name=libsqlite3.a) $(STATIC_LIBS)/ \
	&& $(SWIFT_BUILD) -c release --static-swift-stdlib -Xlinker -L$(CURDIR)/$(STATIC_LIBS) -Xlinker --no-export-dynamic \
		-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
APT_PACKAGES := libcurl4-openssl-dev libpq-dev libssl-dev libsqlite3-dev libncurses-dev zlib1g-dev libdeflate-dev libbrotli-dev libzstd-dev brotli zstd tmux pkg-config curl man-db postgresql openssl
# Servers from outside the project that the tests sync against (Tools/peers).
# dlt's rest_api source is the client the project did not write that walks fresh-mock --mirror's replay.
PYTHON_PEERS := django==5.2.19 djangorestframework==3.18.3 djangorestframework-jsonapi==8.1.0 dlt[duckdb]==1.31.0
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The peers of the benchmarks that put a server under load (bench-mock, bench-replay).
BENCH_APT_PACKAGES := wrk nginx-light
# Installs the Debian packages of $(1) that are missing (apt-get update first, only then).
apt_install = missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "system packages present"; fi

.PHONY: help setup build build-tests test unit e2e docs-check check-imports demo api-check install uninstall clean
.PHONY: bench-tools bench bench-mock bench-cache bench-sync bench-get bench-reader bench-scale bench-replay

help: ## List the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

setup: ## Install the system packages (apt-get) and the Python test peers (pip); idempotent
	@$(call apt_install,$(APT_PACKAGES))
	@if python3 -c 'import sys; from importlib.metadata import version; sys.exit(any(version(n.split("[")[0]) != v for n, v in (p.split("==") for p in sys.argv[1:])))' $(PYTHON_PEERS) 2>/dev/null; \
	then echo "python test peers present"; \
	else echo "installing:" $(PYTHON_PEERS); python3 -m pip install --quiet --disable-pip-version-check $(PYTHON_PEERS); fi

bench-tools: ## Install the benchmarks' load peers (wrk, nginx) with apt-get; idempotent
	@$(call apt_install,$(BENCH_APT_PACKAGES))

build: setup ## Build the programs (fresh, fresh-postgresql, fresh-reader, fresh-mock) (CONFIGURATION=release links the Swift runtime statically)
	$(if $(filter release,$(CONFIGURATION)),$(RELEASE_BUILD),$(SWIFT_BUILD) -c $(CONFIGURATION))

# The programs and the tests in one build (one planning of the package, not two).
build-tests: setup ## Build the programs and the tests (debug)
	$(SWIFT_BUILD) --build-tests

# At most 32 tests at once: run all together, the suites' servers and connections held about
# 2,100 descriptors, and with that many Foundation's Process.run() (Swift 6.3.1) can read past its
# buffer of /proc/self/fd and crash the test process (swift-corelibs-foundation PR #5472, fixed
# after 6.3.1). At 32 the peak is about 600, and the run takes about 10 s longer.
unit: build-tests ## Run the unit and integration tests (swift test)
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=32 $(SWIFT) test --skip-build

# The end-to-end test (two halves side by side itself) and the docs' examples run side by side,
# each in directories, servers and a tmux socket of its own (they spend most of their time waiting
# for processes), each one's output printed whole when it ends: on 2 cores the e2e took 118 s in
# one piece, 70 s in two, and the docs' examples 45 s.
test: build-tests check-imports unit ## Everything: setup, build, the import check, swift test, the end-to-end test, the docs' examples
	$(MAKE) --no-print-directory -j2 --output-sync=target e2e docs-check BUILT=yes

# Within `make test` the programs are built already (BUILT=yes); alone, e2e and docs-check build them.
PROGRAMS := $(if $(BUILT),,build)

check-imports: ## Each target declares exactly what its files import; docs/architecture.md's module graph is Package.swift's
	Tools/check-imports.py

e2e: $(PROGRAMS) ## End-to-end: mock server, sync, cache, offline, reader in tmux
	Tools/e2e.sh $(BIN)

docs-check: $(PROGRAMS) ## Run every example of README.md and docs/*.md against fresh-mock and compare what it prints
	Tools/docs-check-test.py
	Tools/docs-check.py --bin $(BIN)

demo: build ## Mock server, a sync, then the reader (q quits)
	Tools/demo.sh $(BIN)

api-check: build ## fresh-mock's /openapi.json: valid OpenAPI 3.1, and schemathesis finds nothing (venv in .build; API_CHECK_EXAMPLES=50)
	Tools/api-check.sh $(BIN)

bench: bench-mock bench-cache bench-sync bench-get bench-reader ## Every benchmark (bench-mock, bench-cache, bench-sync, bench-get, bench-reader)

bench-mock: setup bench-tools ## fresh-mock vs nginx under wrk (release; BENCH_DURATION=10 BENCH_MEMORY_DURATION=60)
	$(RELEASE_BUILD)
	Tools/bench-mock-server.sh

bench-sync: setup ## fresh sync vs curl vs dlt, 100,000 items (release; BENCH_ROUNDS=5; writes docs/performance.md)
	python3 -m pip install --quiet --disable-pip-version-check "dlt[duckdb]==1.31.0"
	$(RELEASE_BUILD)
	python3 Tools/bench/sync_bench.py --bin .build/release --rounds $${BENCH_ROUNDS:-5} --write docs/performance.md --write-speedups docs/architecture.md

bench-get: setup ## fresh get (a fresh hit) and fresh --help vs curl, whole processes (release; BENCH_RUNS=200; writes docs/performance.md)
	$(RELEASE_BUILD)
	python3 Tools/bench/get_bench.py --bin .build/release --runs $${BENCH_RUNS:-200} --write docs/performance.md

bench-reader: setup ## fresh-reader first frame, memory, scroll and refresh vs fresh sync (release; BENCH_ROUNDS=3; writes docs/performance.md)
	$(RELEASE_BUILD)
	python3 Tools/bench/reader_bench.py --bin .build/release --rounds $${BENCH_ROUNDS:-3} --write docs/performance.md

bench-scale: setup ## fresh at 1,000,000 and 10,000,000 items: sync cold/warm/edit, items, collections, check (release; BENCH_SIZES; writes docs/performance.md; minutes)
	$(RELEASE_BUILD)
	python3 Tools/bench/scale_bench.py --bin .build/release --sizes $${BENCH_SIZES:-1000000,10000000} --write docs/performance.md

bench-replay: setup bench-tools ## fresh-mock --mirror vs nginx under wrk, its memory, its first page at 1,000,000 items (release; writes docs/performance.md)
	$(RELEASE_BUILD)
	python3 Tools/bench/replay_bench.py --bin .build/release --rounds $${BENCH_ROUNDS:-3} --write docs/performance.md

bench-cache: setup ## HTTP cache vs URLSession/URLCache vs hishel (release; BENCH_ROUNDS=3; writes docs/performance.md)
	Tools/bench-cache.sh

# Where `make install` puts the programs, their man pages and completions.
PREFIX ?= $(HOME)/.local
# What it installs: the release build (a debug build installs faster, for a test).
INSTALL_CONFIGURATION ?= release

# It only builds and installs: the system packages a build needs are `make setup`'s business.
# Inside `make test` (BUILT=yes, which reaches the e2e test's and the docs' `make install` through
# the environment) the programs are built already: a second `swift build` of another plan there
# relinked them for 15 s beside the tests.
install: ## Build, then install the programs (stripped), man pages and shell completions under PREFIX (default ~/.local)
	$(if $(BUILT),,$(if $(filter release,$(INSTALL_CONFIGURATION)),$(RELEASE_BUILD),$(SWIFT_BUILD) -c $(INSTALL_CONFIGURATION)))
	Tools/install.sh install "$(PREFIX)" .build/$(INSTALL_CONFIGURATION)

uninstall: ## Remove what make install put under PREFIX
	Tools/install.sh uninstall "$(PREFIX)"

clean: ## Remove build products
	rm -rf .build
