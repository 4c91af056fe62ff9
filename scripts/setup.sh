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

background_pids=()
background_names=()

# Stops here; a step still running beside is stopped too.
fail() {
  printf 'setup: error: %s\n' "$1" >&2
  local pid
  for pid in "${background_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  exit 1
}

# A slow step that needs nothing the others install (compiling the bindgen tool, filling the
# browser-use virtualenv) runs beside them: its output is kept and shown only if it fails, and
# `finish` waits for it. On two cores the compile and the downloads overlap.
background() {
  local name=$1
  shift
  took
  printf 'setup: %-34s %s\n' "$name" "installing (beside the other steps)"
  local log
  log=$(mktemp /tmp/prufe-setup.XXXXXX)
  (
    since=$SECONDS
    if "$@" >"$log" 2>&1; then
      printf 'setup: %-34s took %d s\n' "$name" "$((SECONDS - since))"
      rm -f "$log"
    else
      status=$?
      cat "$log" >&2
      rm -f "$log"
      printf 'setup: error: %s failed (exit %d)\n' "$name" "$status" >&2
      exit "$status"
    fi
  ) &
  background_pids+=("$!")
  background_names+=("$name")
}

# Waits for the background steps, fails if one did, and says how long the setup took.
finish() {
  took
  local i failed=""
  for i in "${!background_pids[@]}"; do
    wait "${background_pids[$i]}" || failed="$failed ${background_names[$i]};"
  done
  background_pids=()
  [[ -z "$failed" ]] || fail "failed:$failed"
  step "done" "in $((SECONDS - started)) s${1:+ ($1)}"
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

if [[ "$mode" != browser ]]; then
  # The bundle's bindgen step (tools/bindgen: wasm-bindgen-cli-support at the version pinned in
  # Cargo.lock) and, for the tests, wasm-bindgen's test runner of the same version, built by the
  # same `cargo install` so that the two compile their common dependencies once. The demo installs
  # the bindgen step alone.
  pinned=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
  [[ -n "$pinned" ]] || fail "wasm-bindgen is not in Cargo.lock"
  tool_hash=$( (echo "$pinned"; cat tools/bindgen/Cargo.toml tools/bindgen/build.rs tools/bindgen/src/*.rs) | sha256sum | cut -d' ' -f1)
  tool_stamp="$HOME/.cargo/.prufe-bindgen"
  tool_features=()
  tool_suffix=""
  tool_name="prufe-bindgen (wasm-bindgen $pinned)"
  if [[ "$mode" == test ]]; then
    tool_features=(--features test-runner)
    tool_suffix=" test-runner"
    tool_name="prufe-bindgen and test runner $pinned"
  fi
  tool_present() {
    [[ "$(prufe-bindgen --version 2>/dev/null)" == "wasm-bindgen $pinned" && -f "$tool_stamp" ]] || return 1
    local stamp
    stamp=$(cat "$tool_stamp")
    if [[ "$mode" == test ]]; then
      [[ "$stamp" == "$tool_hash test-runner" && "$(wasm-bindgen-test-runner --version 2>/dev/null)" == *" $pinned" ]]
    else
      [[ "$stamp" == "$tool_hash" || "$stamp" == "$tool_hash test-runner" ]]
    fi
  }
  if tool_present; then
    step "$tool_name" "present"
  else
    # (`&&`: a function run as a condition does not stop at a failed command.)
    install_tool() {
      cargo install --force --locked --profile tool --path tools/bindgen "${tool_features[@]}" &&
        echo "$tool_hash$tool_suffix" >"$tool_stamp"
    }
    background "$tool_name" install_tool
  fi
fi

if [[ "$mode" == test ]]; then
  python=$(command -v python3 || true)
  [[ -n "$python" ]] || fail "python3 is required"
  # browser-use for tests/python/test_browser_use.py, in a virtualenv of its own (its mcp pin
  # conflicts with the MCP test's); recreated only when its requirements changed.
  bu_stamp=.venv-browser-use/.prufe-setup
  bu_hash=$(sha256sum tests/python/requirements-browser-use.txt | cut -d' ' -f1)
  if [[ -f "$bu_stamp" && "$(cat "$bu_stamp")" == "$bu_hash" ]]; then
    step "browser-use virtualenv" "present"
  else
    make_browser_use_venv() {
      rm -rf .venv-browser-use &&
        "$python" -m venv .venv-browser-use &&
        .venv-browser-use/bin/pip install --quiet --disable-pip-version-check -r tests/python/requirements-browser-use.txt &&
        echo "$bu_hash" >"$bu_stamp"
    }
    background "browser-use virtualenv" make_browser_use_venv
  fi
fi

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
  finish "what the demo needs"
  exit 0
fi

# Python driver test: the playwright package (its driver only, never `playwright install`).
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

finish ""
