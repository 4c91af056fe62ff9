#!/usr/bin/env bash
# scripts/timed.sh LABEL COMMAND…: runs the command, saying when it starts and how long it took
# (a line each), so that a long step of `make demo` or `make test` shows it is under way.
set -euo pipefail
label=$1
shift
started=$SECONDS
printf '%s started\n' "$label"
if "$@"; then
  printf '%s took %d s\n' "$label" "$((SECONDS - started))"
else
  status=$?
  printf '%s failed after %d s\n' "$label" "$((SECONDS - started))" >&2
  exit "$status"
fi
