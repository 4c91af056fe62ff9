#!/usr/bin/env bash
# Installs everything prufe builds and tests with, on a fresh Debian machine (as root), and is a
# fast no-op when all is present: each step checks first and acts only on what is missing.
# Nothing is fetched but from the package registries (crates.io, npm, PyPI, Debian); no
# browser is downloaded: the tests use Debian's Chromium at /usr/bin/chromium.
#
#   scripts/setup.sh        everything `make test` needs (the default)
#   scripts/setup.sh demo   only what `make demo` needs: the wasm32 target, Chromium, the
#                           bindgen tool and the npm packages (wasm-opt); no ChromeDriver, no
#                           wasm-bindgen test runner, no Python packages
#   scripts/setup.sh browser   Chromium alone: what `make demo` needs when the engine comes
#                           from js/prebuilt (js/prebuilt.mjs install)
set -euo pipefail

mode=${1:-test}
case "$mode" in
  demo | test | browser) ;;
  *)
    printf 'setup: error: unknown mode %s (demo, test or browser)\n' "$mode" >&2
    exit 2
    ;;
esac

cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export PUPPETEER_SKIP_DOWNLOAD=1
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export DEBIAN_FRONTEND=noninteractive

started=$SECONDS

# Each step says what it finds; one that installs says how long it took once it is done.
installing=""
installing_since=0

step() {
  took
  printf 'setup: %-34s %s\n' "$1" "$2"
  if [[ "$2" == installing* ]]; then
    installing="$1"
    installing_since=$SECONDS
  fi
}

took() {
  if [[ -n "$installing" ]]; then
    printf 'setup: %-34s took %d s\n' "$installing" "$((SECONDS - installing_since))"
    installing=""
  fi
}

fail() {
  printf 'setup: error: %s\n' "$1" >&2
  exit 1
}

# Rust: the wasm32 target and the lint/format components.
command -v rustup >/dev/null || fail "rustup is required (the Rust toolchain is managed by rustup)"
if [[ "$mode" == browser ]]; then
  : # the engine is prebuilt: no wasm target
elif rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rust target wasm32-unknown-unknown" "present"
else
  step "rust target wasm32-unknown-unknown" "installing"
  rustup target add wasm32-unknown-unknown
fi
installed_components=$(rustup component list --installed)
components=(rustfmt clippy)
[[ "$mode" != test ]] && components=()
for component in "${components[@]}"; do
  if grep -q "^$component" <<<"$installed_components"; then
    step "rust component $component" "present"
  else
    step "rust component $component" "installing"
    rustup component add "$component"
  fi
done

# Debian packages: Chromium, and ChromeDriver for the wasm tests (apt-get update only when one
# is missing).
packages=(chromium chromium-driver)
[[ "$mode" != test ]] && packages=(chromium)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if ((${#missing[@]} == 0)); then
  step "debian ${packages[*]}" "present ($(/usr/bin/chromium --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1))"
else
  step "debian ${missing[*]}" "installing"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ "$mode" == browser ]]; then
  step "done" "in $((SECONDS - started)) s (Chromium, for the demo with the prebuilt engine)"
  exit 0
fi

# The bundle's bindgen step (tools/bindgen: wasm-bindgen-cli-support at the version pinned in
# Cargo.lock, without the CLI's test runner), installed from this checkout.
pinned=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[[ -n "$pinned" ]] || fail "wasm-bindgen is not in Cargo.lock"
tool_hash=$( (echo "$pinned"; cat tools/bindgen/Cargo.toml tools/bindgen/build.rs tools/bindgen/src/*.rs) | sha256sum | cut -d' ' -f1)
tool_stamp="$HOME/.cargo/.prufe-bindgen"
if [[ "$(prufe-bindgen --version 2>/dev/null)" == "wasm-bindgen $pinned" && -f "$tool_stamp" &&
  "$(cat "$tool_stamp")" == "$tool_hash" ]]; then
  step "prufe-bindgen (wasm-bindgen $pinned)" "present"
else
  step "prufe-bindgen (wasm-bindgen $pinned)" "installing from tools/bindgen (about a minute)"
  cargo install --quiet --force --locked --profile tool --path tools/bindgen
  echo "$tool_hash" >"$tool_stamp"
fi

# The tests' wasm-bindgen-test-runner, at exactly the wasm-bindgen version in Cargo.lock.
# `--locked` is not used: the CLI's own lock file does not resolve against the current
# registry index. No default features: the runner talks plain HTTP to a local ChromeDriver,
# so the TLS stack (ring) is not compiled.
if [[ "$mode" == test ]]; then
  if [[ "$(wasm-bindgen-test-runner --version 2>/dev/null)" == *"$pinned"* ]]; then
    step "wasm-bindgen-test-runner $pinned" "present"
  else
    step "wasm-bindgen-test-runner $pinned" "installing from crates.io (a few minutes)"
    cargo install --quiet --force --no-default-features wasm-bindgen-cli --version "=$pinned"
  fi
fi

# npm packages from package-lock.json; reinstalled only when package.json or the lock changed.
command -v node >/dev/null || fail "Node.js 20 or newer is required"
command -v npm >/dev/null || fail "npm is required"
lock_hash=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
stamp=node_modules/.prufe-setup
if [[ -f "$stamp" && "$(cat "$stamp")" == "$lock_hash" ]]; then
  step "npm packages" "present"
else
  step "npm packages" "installing (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  echo "$lock_hash" >"$stamp"
fi

if [[ "$mode" == demo ]]; then
  step "done" "in $((SECONDS - started)) s (what the demo needs)"
  exit 0
fi

# Python driver test: the playwright package (its driver only, never `playwright install`).
python=$(command -v python3 || true)
[[ -n "$python" ]] || fail "python3 is required"
if "$python" - tests/python/requirements.txt <<'EOF'
import sys
from importlib.metadata import PackageNotFoundError, version
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, wanted = line.split("==")
    try:
        if version(name) != wanted:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
EOF
then
  step "python packages" "present"
else
  step "python packages" "installing (pip)"
  "$python" -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
fi

# The Python package of python/, installed editable (its engine files are copied by `make python`).
if "$python" -c 'import os, prufe; raise SystemExit(os.path.realpath(prufe.__file__) != os.path.realpath("python/src/prufe/__init__.py"))' 2>/dev/null; then
  step "python package prufe" "present"
else
  step "python package prufe" "installing (pip install -e ./python)"
  "$python" -m pip install --quiet --disable-pip-version-check --no-deps -e ./python
fi

# browser-use for tests/python/test_browser_use.py, in a virtualenv of its own (its mcp pin
# conflicts with the MCP test's); recreated only when its requirements changed.
bu_stamp=.venv-browser-use/.prufe-setup
bu_hash=$(sha256sum tests/python/requirements-browser-use.txt | cut -d' ' -f1)
if [[ -f "$bu_stamp" && "$(cat "$bu_stamp")" == "$bu_hash" ]]; then
  step "browser-use virtualenv" "present"
else
  step "browser-use virtualenv" "installing (pip, about a minute)"
  "$python" -m venv .venv-browser-use
  .venv-browser-use/bin/pip install --quiet --disable-pip-version-check -r tests/python/requirements-browser-use.txt
  echo "$bu_hash" >"$bu_stamp"
fi

step "done" "in $((SECONDS - started)) s"
