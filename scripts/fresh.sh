#!/usr/bin/env bash
# scripts/fresh.sh --yes [--runs N] [--demo-only]: the README's two commands on this machine
# made fresh. Removes what scripts/setup.sh installs (Debian's Chromium and ChromeDriver, the
# wasm32 target and the lint components, the bindgen tools, the crates, npm and pip caches,
# the PyPI packages of the tests and the browser-use virtualenv), clones the commit checked out
# here into a new directory, as CI does, and runs `make demo` and then `make test` there, N
# times (default 1; each run after the first starts fresh again), printing each step's time.
#
# It changes the machine: it asks for --yes. The Rust toolchain (rustup), Node, npm and
# Python are what a fresh machine is expected to have; they stay.
set -euo pipefail

cd "$(dirname "$0")/.."
repo=$PWD
yes=0 runs=1 demo_only=0
while (($#)); do
  case "$1" in
    --yes) yes=1 ;;
    --runs) runs=$2; shift ;;
    --demo-only) demo_only=1 ;;
    *) echo "fresh.sh: unknown argument $1 (see the header of scripts/fresh.sh)" >&2; exit 2 ;;
  esac
  shift
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "fresh.sh: --runs takes a whole number above 0" >&2; exit 2; }
if ((yes == 0)); then
  echo "fresh.sh removes Chromium, ChromeDriver, the wasm32 target, the bindgen tools, the crates" >&2
  echo "and npm/pip caches and the tests' PyPI packages from this machine; run it with --yes." >&2
  exit 2
fi
export PATH="$HOME/.cargo/bin:$PATH"
commit=$(git rev-parse HEAD)

say() { printf '[fresh %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
timed() {
  local label=$1 started=$SECONDS status=0
  shift
  say "$label: started"
  "$@" || status=$?
  say "$label: $( ((status == 0)) && echo "took" || echo "FAILED after") $((SECONDS - started)) s"
  return "$status"
}

make_fresh() {
  # Debian's Chromium and ChromeDriver (scripts/setup.sh installs them again).
  local installed=() package
  for package in chromium chromium-common chromium-driver chromium-sandbox; do
    if dpkg -s "$package" >/dev/null 2>&1; then installed+=("$package"); fi
  done
  if ((${#installed[@]})); then
    apt-get purge -y -qq "${installed[@]}" >/dev/null
    apt-get autoremove -y -qq >/dev/null || true
  fi
  if command -v chromium >/dev/null; then
    echo "fresh.sh: Chromium is still installed after the purge" >&2
    return 1
  fi
  rustup target remove wasm32-unknown-unknown >/dev/null 2>&1 || true
  rustup component remove clippy rustfmt >/dev/null 2>&1 || true
  rm -f "$HOME"/.cargo/bin/wasm-bindgen "$HOME"/.cargo/bin/wasm-bindgen-test-runner \
    "$HOME"/.cargo/bin/wasm2es6js "$HOME"/.cargo/bin/prufe-bindgen
  rm -rf "$HOME"/.cargo/registry "$HOME"/.cargo/git "$HOME"/.npm "$HOME"/.cache/pip \
    "$HOME"/.cache/ms-playwright
  python3 -m pip uninstall -y -q playwright pytest mcp mypy prufe >/dev/null 2>&1 || true
}

total=$SECONDS
for ((run = 1; run <= runs; run++)); do
  dir=$(mktemp -d /tmp/prufe-fresh.XXXXXX)
  say "run $run of $runs: commit $commit in $dir"
  timed "making the machine fresh" make_fresh
  timed "clone" git clone -q "$repo" "$dir/prufe"
  git -C "$dir/prufe" checkout -q "$commit"
  run_started=$SECONDS
  timed "make demo" make -C "$dir/prufe" demo
  if ((demo_only == 0)); then
    timed "make test" make -C "$dir/prufe" test
  fi
  say "run $run: both commands green in $((SECONDS - run_started)) s"
  rm -rf "$dir"
done
say "$runs fresh run(s) green in $((SECONDS - total)) s"
