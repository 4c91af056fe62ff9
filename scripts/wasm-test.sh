#!/usr/bin/env bash
# Runs the in-browser wasm tests (wasm-bindgen-test) in headless Chromium under ChromeDriver:
# the integration tests tests/web*.rs, plus the library's own when it has any. Chromium's
# flags come from webdriver.json. `--mode no-install`: wasm-pack must not download anything;
# scripts/setup.sh installed wasm-bindgen-test-runner at the pinned version.
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

exec wasm-pack test --headless --chrome --chromedriver "${CHROMEDRIVER:-/usr/bin/chromedriver}" \
  --mode no-install . "${targets[@]}"
