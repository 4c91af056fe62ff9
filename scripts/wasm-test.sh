#!/usr/bin/env bash
# Runs the in-browser wasm tests (wasm-bindgen-test) in headless Chromium under ChromeDriver:
# the integration tests tests/web*.rs, plus the library's own when it has any. Cargo runs
# each test binary with wasm-bindgen-test-runner (built with tools/bindgen by scripts/setup.sh,
# at the version pinned in Cargo.lock), which reads Chromium's binary and flags from webdriver.json
# in this directory and downloads nothing. Arguments go to cargo (`--no-run`: compile only).
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

targets=()
if compgen -G 'tests/web*.rs' >/dev/null; then
  targets+=(--test 'web*')
fi
if grep -rqs 'wasm_bindgen_test' src/; then
  targets+=(--lib)
fi
if ((${#targets[@]} == 0)); then
  echo "wasm tests: none yet (no tests/web*.rs and no wasm_bindgen_test in src/)"
  exit 0
fi

export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
# The runner gives a browser run 20 s by default; the random-mutation test alone takes longer on
# a loaded 2-core machine, and a loaded machine must not fail a suite that is right.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-600}"
exec cargo test --target wasm32-unknown-unknown "${targets[@]}" "$@"
