#!/usr/bin/env node
// The page engine as built from the sources in this commit, kept in js/prebuilt/ so that
// `make demo` on a fresh machine needs neither the bindgen tool nor a wasm build (together
// about five of its minutes on two cores). The engine is used only where it is the build of
// these very sources: js/prebuilt/inputs.sha256 names a digest of every input of
// `node js/build.mjs --page` (the Rust sources, manifests and lock files, the loader, the
// build script, the npm lock that pins wasm-opt, esbuild and Zopfli, and `rustc -V`), and
// `install` copies the engine only when the digest of the checkout is the same.
//
//   node js/prebuilt.mjs install   copy js/prebuilt/prufe.js to js/dist/prufe.js if it is the
//                                  build of these sources; exit 1 (and say why) if not
//   node js/prebuilt.mjs record    keep js/dist/prufe.js, just built, as the prebuilt engine
//   node js/prebuilt.mjs verify    (make test) the recorded digest is that of these sources,
//                                  and the engine just built is byte for byte the one kept
//
// Only Node's own modules: `install` runs before any npm package is installed.

import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(ROOT, 'js', 'prebuilt');
const ENGINE = join(DIR, 'prufe.js');
const DIGEST = join(DIR, 'inputs.sha256');
const BUILT = join(ROOT, 'js', 'dist', 'prufe.js');

/** Every file the page engine's build reads, sorted; directories are walked for `.rs`. */
function inputs() {
  const files = [
    'Cargo.toml', 'Cargo.lock', 'package-lock.json', 'js/build.mjs', 'js/src/shim.js',
    'js/inflate/Cargo.toml', 'js/inflate/Cargo.lock', 'tools/bindgen/Cargo.toml', 'tools/bindgen/build.rs',
  ];
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.rs')) files.push(path);
    }
  };
  for (const dir of ['src', 'js/inflate/src', 'tools/bindgen/src']) walk(dir);
  return files.sort();
}

/** The digest of the inputs as they are in this checkout, and of the compiler. */
function digest() {
  const rustc = spawnSync('rustc', ['-V'], { encoding: 'utf8' });
  if (rustc.error || rustc.status !== 0) throw new Error('rustc -V failed: is the Rust toolchain installed?');
  const hash = createHash('sha256');
  hash.update(`${rustc.stdout.trim()}\n`);
  for (const file of inputs()) {
    const path = join(ROOT, file);
    const bytes = existsSync(path) ? readFileSync(path) : null;
    hash.update(`${file}\0${bytes === null ? 'absent' : bytes.length}\0`);
    if (bytes !== null) hash.update(bytes);
  }
  return hash.digest('hex');
}

function recorded() {
  return existsSync(DIGEST) ? readFileSync(DIGEST, 'utf8').trim() : null;
}

function say(message) {
  process.stdout.write(`engine: ${message}\n`);
}

function install() {
  const now = digest();
  const kept = recorded();
  if (!existsSync(ENGINE) || kept === null) {
    say('no prebuilt engine in js/prebuilt: building it');
    return 1;
  }
  if (kept !== now) {
    say(`js/prebuilt/prufe.js was built from other sources (inputs ${kept.slice(0, 12)}, these are ${now.slice(0, 12)}): building it`);
    return 1;
  }
  mkdirSync(dirname(BUILT), { recursive: true });
  const temporary = `${BUILT}.${process.pid}.tmp`;
  copyFileSync(ENGINE, temporary);
  renameSync(temporary, BUILT);
  say(`js/dist/prufe.js is js/prebuilt/prufe.js, the build of these sources (inputs ${now.slice(0, 12)})`);
  return 0;
}

function record() {
  if (!existsSync(BUILT)) throw new Error(`${relative(ROOT, BUILT)} is missing: run make bundle first`);
  mkdirSync(DIR, { recursive: true });
  copyFileSync(BUILT, ENGINE);
  writeFileSync(DIGEST, `${digest()}\n`);
  say(`kept js/dist/prufe.js as js/prebuilt/prufe.js (inputs ${recorded().slice(0, 12)})`);
  return 0;
}

function verify() {
  const now = digest();
  const kept = recorded();
  if (kept !== now) {
    process.stderr.write(`engine: js/prebuilt/inputs.sha256 is ${kept ?? 'missing'}, these sources are ${now}: `
      + 'run `make prebuilt` and commit js/prebuilt\n');
    return 1;
  }
  if (!readFileSync(BUILT).equals(readFileSync(ENGINE))) {
    process.stderr.write('engine: js/dist/prufe.js, built from these sources, differs from js/prebuilt/prufe.js, '
      + 'recorded for the same sources: the build is not reproducible here; run `make prebuilt` and compare\n');
    return 1;
  }
  say(`js/prebuilt/prufe.js is byte for byte the build of these sources (inputs ${now.slice(0, 12)})`);
  return 0;
}

const commands = { install, record, verify };
const command = commands[process.argv[2]];
if (!command) {
  process.stderr.write('usage: node js/prebuilt.mjs install|record|verify\n');
  process.exit(2);
}
try {
  process.exit(command());
} catch (error) {
  process.stderr.write(`engine: ${error.message}\n`);
  process.exit(1);
}
