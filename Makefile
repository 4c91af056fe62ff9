# prufe: `make demo` runs the main job, `make test` runs every test. Both run the setup first.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

export PATH := $(HOME)/.cargo/bin:$(PATH)
export PUPPETEER_SKIP_DOWNLOAD := 1
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export PYTHONDONTWRITEBYTECODE := 1

CHROMEDRIVER ?= /usr/bin/chromedriver
BUNDLE := js/dist/prufe.js
# The DOM-free machine module, built by the same script: an ES module, the same as a classic
# script, and the module's types.
MACHINE := js/dist/prufe-run.mjs js/dist/prufe-run.js js/dist/prufe-run.d.mts
# The Python tests (the driver, `prufe mcp` under the MCP SDK, and the `prufe` package of
# python/) run under pytest when it is installed, else as plain scripts (driver and MCP only).
# The package's types are checked in strict mode first (mypy --strict on python/src). Among
# them is the parity suite (tests/python/test_parity.py, `make parity` alone): the scenarios
# of tests/parity/scenarios.json through the CLI, the MCP server, the npm package (its players
# in tests/js/support/parity-run.mjs) and the Python package, three surfaces at a time.
PYTHON_TEST := if python3 -c 'import pytest' 2>/dev/null; then python3 -m mypy --strict --config-file python/pyproject.toml --cache-dir /tmp/prufe-mypy-cache python/src/prufe && python3 -m pytest -q -p no:cacheprovider -rs --durations=8 tests/python; else python3 tests/python/test_driver.py && python3 tests/python/test_mcp.py; fi
BUNDLE_INPUTS := $(shell find src js/inflate/src -name '*.rs') Cargo.toml Cargo.lock js/inflate/Cargo.toml js/src/shim.js js/src/run.js js/build.mjs

.PHONY: check parity soak corpus-test test-compile test-engine test-core grid help setup bundle node apps python demo demo-harness demo-bundle prebuilt snapshot test test-node test-python lint test-rust test-wasm test-drivers typecheck types bench fuzz

help:
	@echo "make demo    build everything and run the demo"
	@echo "make test    run every test (what CI runs)"
	@echo "make check   the contributor's loop: format, clippy, the core tests, one browser step per surface"
	@echo "make lint    clippy, native and wasm32, warnings denied"
	@echo "make soak    the browser suites 5 times under load (SOAK_RUNS=N), report in bench/soak.md"
	@echo "make parity  every surface (CLI, MCP, npm with Playwright and Puppeteer, Python sync and async) on the parity scenarios"
	@echo "make types   rewrite the TypeScript declarations and the MCP tool list generated from the Rust types"
	@echo "make bundle  build js/dist/prufe.js and the machine module js/dist/prufe-run.mjs"
	@echo "make prebuilt  make bundle, and keep the page engine in js/prebuilt (commit it)"
	@echo "make node    copy the bundle and the machine module into the npm package (node/dist)"
	@echo "make apps    bundle the fixture apps (fixtures/apps) with esbuild"
	@echo "make python  copy the engine into the Python package (python/src/prufe/engine)"
	@echo "make snapshot PAGE=fixtures/shop.html   print what the engine observes on a page"
	@echo "make bench   measure the engine against plain JS, Playwright and CDP"
	@echo "make corpus-test   the honest corpus's test (about 25 minutes)"
	@echo "make setup   install the toolchain, Chromium and the npm/PyPI packages"
	@echo "make grid    install the Selenium Grid the harness's grid test attaches to (Java, the server jar)"

setup:
	@scripts/setup.sh

# The Selenium Grid of harness/tests/grid.rs: Debian's Java runtime when `java` is missing and
# the Selenium server jar, cached in ~/.cache/prufe/grid (a no-op when both are there). Only
# what runs the harness's tests installs it; `make demo` never does.
grid:
	@scripts/timed.sh "grid: scripts/grid.sh install" scripts/grid.sh install

bundle: $(BUNDLE) $(MACHINE)

# One run of the build script writes all of them (a grouped target: make runs it once).
$(BUNDLE) $(MACHINE) &: $(BUNDLE_INPUTS)
	node js/build.mjs

# CI always tests a bundle built from the sources it checked out, whatever the file times say.
ifdef CI
$(BUNDLE) $(MACHINE): FORCE
endif
.PHONY: FORCE
FORCE:

# The npm package `prufe` (node/) ships the bundle, the machine module, the wire decoder and
# their types in node/dist/, copied there from the build above (gitignored).
NODE_DIST := node/dist/prufe.js node/dist/prufe-work.js node/dist/prufe-run.mjs node/dist/wire.mjs node/dist/prufe.d.ts node/dist/prufe-types.d.ts node/dist/prufe-run.d.ts node/dist/prufe-run-types.d.ts

node: $(NODE_DIST)

$(NODE_DIST) &: $(BUNDLE) $(MACHINE) js/src/work.js js/wire.mjs js/prufe.d.ts js/prufe-types.d.ts js/prufe-run.d.ts js/prufe-run-types.d.ts node/build.mjs
	node node/build.mjs

# The fixture apps (React, Vue, Radix UI pages under fixtures/apps), bundled from npm packages
# into fixtures/apps/dist; rebuilt only when a source, the build script or the lock changed.
APPS_STAMP := fixtures/apps/dist/.built
APPS_INPUTS := $(shell find fixtures/apps/src -type f) fixtures/apps/build.mjs package-lock.json

apps: $(APPS_STAMP)

$(APPS_STAMP): $(APPS_INPUTS)
	node fixtures/apps/build.mjs
	touch $@

# The honest corpus's pages (component libraries' widgets under fixtures/corpus), bundled from
# npm packages into fixtures/corpus/dist; rebuilt only when a source, the build script or the
# lock changed.
.PHONY: corpus
CORPUS_STAMP := fixtures/corpus/dist/.built
CORPUS_INPUTS := $(shell find fixtures/corpus/src -type f) fixtures/corpus/build.mjs package-lock.json

corpus: $(CORPUS_STAMP)

$(CORPUS_STAMP): $(CORPUS_INPUTS)
	node fixtures/corpus/build.mjs
	touch $@

# The demo needs less than the tests. The harness compiles without the MCP server and the
# HTTP judge (`--no-default-features`; the tests' dev profile: dependencies optimised, no
# LTO) while, beside it, the engine is taken from js/prebuilt when that is the build of these
# sources (js/prebuilt.mjs checks a digest of every input), so only Chromium is installed;
# otherwise `scripts/setup.sh demo` installs the bindgen tool and the npm packages and the
# engine is built. Each step says how long it took.
demo:
	@$(MAKE) --no-print-directory -j2 demo-harness demo-bundle
	target/debug/prufe demo

demo-harness:
	@scripts/timed.sh "demo: harness (cargo build -p prufe-harness --no-default-features)" cargo build -q -p prufe-harness --bin prufe --no-default-features

demo-bundle:
	@if node js/prebuilt.mjs install; then scripts/setup.sh browser; \
	else scripts/setup.sh demo && $(MAKE) --no-print-directory $(PAGE_STAMP); fi

# Builds the bundle and keeps its page engine in js/prebuilt (commit it with the sources it
# was built from; `make test` checks it is the build of the sources, byte for byte).
prebuilt: bundle
	node js/prebuilt.mjs record

# The page engine alone, for the demo (`make bundle` builds it with the machine module).
PAGE_STAMP := target/.prufe-page-bundle
$(PAGE_STAMP): $(BUNDLE_INPUTS)
	@scripts/timed.sh "demo: bundle (js/dist/prufe.js)" node js/build.mjs --page
	@mkdir -p target && touch $@

# What the engine observes on one page: make snapshot PAGE=fixtures/shop.html
PAGE ?= fixtures/recycled-list.html
snapshot: setup
	@$(MAKE) --no-print-directory bundle
	node scripts/demo-snapshot.mjs $(PAGE)

# Fails on the first error. Three stages, each running side by side what does not wait on the
# other: on two cores a compile leaves one idle for long stretches (linking, LTO, a crate that
# many wait for), downloads wait on the network and browser tests on the browser.
# 1. the setup, beside compiling the native test binaries (they need nothing it installs);
# 2. the bundle and the packages' copies of it, beside the format check, the core and decoder
#    tests and the compile of the in-browser wasm tests, then the Selenium Grid's install (for
#    the harness's grid test; a no-op when cached);
# 3. the wasm tests; the harness suites; then the Node and the Python tests side by side; then
#    the type checks. Browser tests never run beside a compile or each other's suites (Node
#    and Python excepted): under that load time-bounded tests miss their bounds (the wasm
#    test runner's 5 s WebDriver timeout, a huge page's snapshot within its budget).
test:
	@$(MAKE) --no-print-directory -j2 setup test-compile
	@$(MAKE) --no-print-directory -j2 test-engine test-core grid
	scripts/wasm-test.sh
	cargo test -p prufe-harness
	@$(MAKE) --no-print-directory -j2 test-node test-python
	node_modules/.bin/tsc --noEmit -p js
	node_modules/.bin/tsc --noEmit -p node
	node_modules/.bin/tsc --noEmit -p tests/ts

test-compile:
	@scripts/timed.sh "test: compiling the native tests" bash -c 'cargo test -q -p prufe --features schema --no-run && cargo test -q --manifest-path js/inflate/Cargo.toml --target-dir target/inflate-test --no-run && cargo test -q -p prufe-harness --no-run'

test-engine:
	@$(MAKE) --no-print-directory bundle node apps corpus python
	node js/prebuilt.mjs verify

test-core:
	node scripts/import-circles.mjs --quiet
	python3 scripts/sync_api.py --check
	cargo fmt --all --check
	cargo fmt --check --manifest-path js/inflate/Cargo.toml
	cargo test -p prufe --features schema
	cargo test --manifest-path js/inflate/Cargo.toml --target-dir target/inflate-test
	scripts/wasm-test.sh --no-run

# The Node and the Python tests of `make test`, run side by side (both wait on Chromium far
# more than they compute), each against the CLI just built.
# The honest corpus's own test (tests/js/corpus.test.mjs: every page renders, no fault is
# MATCH, no honest run is refused but the known ones) runs some thousand verified steps, about
# 25 minutes on two cores: it runs in `make corpus-test` and `make bench`, not here.
NODE_TESTS := $(filter-out tests/js/corpus.test.mjs,$(wildcard tests/js/*.test.mjs))

test-node:
	PRUFE_CLI=target/debug/prufe node --test --test-concurrency=2 $(NODE_TESTS) fixtures/pages.test.mjs www/viewer/
	node tests/js/oracle.mjs

test-python:
	export PRUFE_CLI=$(CURDIR)/target/debug/prufe PRUFE_BROWSER_USE_PYTHON=$(CURDIR)/.venv-browser-use/bin/python; $(PYTHON_TEST)

# The parity suite alone: the same records from every surface (about three minutes).
parity: setup
	@$(MAKE) --no-print-directory bundle node python
	cargo build -q -p prufe-harness --bin prufe
	PRUFE_CLI=$(CURDIR)/target/debug/prufe python3 -m pytest -q -p no:cacheprovider tests/python/test_parity.py

# What a contributor runs while editing, warm in a few minutes: the format, clippy on the
# core crate, the core's tests (the judge's tables, the goldens, the machine's rows, the
# corpus's recorded states) and one verified browser step on each surface: the CLI, the MCP
# server (stdio), the npm package and the Python package. `make test` stays the whole suite.
check: setup
	@scripts/timed.sh "check: import circles" node scripts/import-circles.mjs --quiet
	@scripts/timed.sh "check: the sync API generated from the async one" python3 scripts/sync_api.py --check
	@scripts/timed.sh "check: format" cargo fmt --all --check
	@scripts/timed.sh "check: clippy (prufe)" cargo clippy -q -p prufe --features schema --all-targets -- -D warnings
	@scripts/timed.sh "check: core tests" cargo test -q -p prufe --features schema
	@$(MAKE) --no-print-directory bundle node python
	@scripts/timed.sh "check: CLI" cargo test -q -p prufe-harness --test cli run_json_lines_and_traces_for_an_honest_shop
	@scripts/timed.sh "check: npm package" env PRUFE_CLI=target/debug/prufe node --test --test-name-pattern "Dark mode" tests/js/verdicts.test.mjs
	@scripts/timed.sh "check: MCP and Python package" env PRUFE_CLI=$(CURDIR)/target/debug/prufe python3 -m pytest -q -p no:cacheprovider tests/python/test_mcp.py::test_stdio_session tests/python/test_package.py::test_every_action_of_the_shop_is_verified

# The browser suites of `make test` (wasm, harness, Node, Python), SOAK_RUNS times one after
# another beside two busy loops; per test its runs, failures and slowest time against the
# bound (scripts/soak.mjs). Everything is built first, so no compile runs under the load.
SOAK_RUNS ?= 5
soak: setup
	@$(MAKE) --no-print-directory bundle node apps corpus python
	scripts/wasm-test.sh --no-run
	cargo test -q -p prufe-harness --no-run
	scripts/grid.sh install
	node scripts/soak.mjs --runs $(SOAK_RUNS)

# Clippy on every target and both wasm builds, warnings denied. Kept out of `make test`: it
# compiles every dependency a second time (check mode), native and wasm32, which CI's time
# limit cannot afford next to the tests.
lint: setup
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p prufe --target wasm32-unknown-unknown -- -D warnings
	cargo clippy -p prufe --target wasm32-unknown-unknown --no-default-features --features machine -- -D warnings

test-rust: grid
	cargo test -p prufe --features schema
	cargo test --manifest-path js/inflate/Cargo.toml --target-dir target/inflate-test
	cargo test -p prufe-harness

# In-browser wasm tests (tests/web*.rs) under ChromeDriver; webdriver.json holds the flags.
test-wasm:
	scripts/wasm-test.sh

test-drivers: bundle node python
	node --test tests/js/
	export PRUFE_BROWSER_USE_PYTHON=$(CURDIR)/.venv-browser-use/bin/python; $(PYTHON_TEST)

# What is generated from the Rust types, rewritten from the sources: the TypeScript
# declarations (js/prufe-types.d.ts, js/prufe-run-types.d.ts; src/types.rs) and the MCP
# server's tool list (docs/mcp-tools.json). `make test` fails while a committed one differs.
types:
	PRUFE_BLESS=1 cargo test -q -p prufe --features schema --test types
	PRUFE_BLESS=1 cargo test -q -p prufe-harness --lib mcp::tools::tests::the_committed_tool_list_is_current

typecheck: node
	node_modules/.bin/tsc --noEmit -p js
	node_modules/.bin/tsc --noEmit -p node
	node_modules/.bin/tsc --noEmit -p tests/ts

bench: setup
	@$(MAKE) --no-print-directory bundle node apps corpus
	node scripts/bench.mjs
	node scripts/driver-lines.mjs
	node scripts/corpus.mjs --quick-ms 0
	node scripts/corpus.mjs --quick-ms 50 --out bench/corpus-quick.md
	cargo bench -q -p prufe --bench diff
	cargo run --release -q -p prufe-harness --example click_bench -- --quick-ms 0 --out bench/click.md
	cargo run --release -q -p prufe-harness --example click_bench -- --quick-ms 50 --out bench/click-quick.md
	cargo build --release -q -p prufe-harness --bin prufe
	node scripts/scale.mjs
	python3 scripts/scale_mcp.py --out bench/scale-mcp.md
	scripts/grid.sh install
	node scripts/scale_grid.mjs --out bench/scale-grid.md
	python3 scripts/mcp_bench.py
	cargo run --release -q -p prufe-harness --example fault_bench -- --quick-ms 0 --out bench/faults.md
	cargo run --release -q -p prufe-harness --example fault_bench -- --quick-ms 50 --out bench/faults-quick.md

corpus-test: bundle node corpus
	node --test tests/js/corpus.test.mjs

# The property tests of `make test` run a few hundred cases each; this runs them long.
fuzz:
	PROPTEST_CASES=50000 cargo test --release -p prufe --test core_props --test resolve_props
	PROPTEST_CASES=50000 cargo test --release -p prufe-harness --lib script

# The Python package (python/): its engine files copied from js/dist, the package installed
# (editable) by scripts/setup.sh.
PY_ENGINE := python/src/prufe/engine
python: $(PY_ENGINE)/prufe.js $(PY_ENGINE)/prufe-run.js $(PY_ENGINE)/prufe-work.js

$(PY_ENGINE)/prufe-work.js: js/src/work.js
	mkdir -p $(PY_ENGINE)
	cp $< $@

$(PY_ENGINE)/%.js: js/dist/%.js
	mkdir -p $(PY_ENGINE)
	cp $< $@
