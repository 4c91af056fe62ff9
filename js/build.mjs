#!/usr/bin/env node
// Builds js/dist/prufe.js: the prufe crate for wasm32 (release) → wasm-bindgen
// (--target no-modules) → wasm-opt → one classic script with the wasm inlined as base64,
// wrapped by js/src/shim.js.
//
// Environment: PRUFE_WASM_OPT=0 skips wasm-opt (quicker local iterations; never in CI).

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_DIR = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, 'target');
const WORK = join(TARGET_DIR, 'prufe-bundle');
const OUT = join(ROOT, 'js', 'dist', 'prufe.js');
const SHIM = join(ROOT, 'js', 'src', 'shim.js');

// wasm-opt comes from the `binaryen` npm package, pinned in package.json. Debian's binaryen
// (108) predates the final reference-types encoding: it rewrites wasm-bindgen's externref
// table as `anyref`, which Chromium then refuses at instantiation.
const WASM_OPT = join(ROOT, 'node_modules', '.bin', 'wasm-opt');
// Features the Rust wasm32 target emits by default; wasm-opt must be told about each.
const WASM_FEATURES = [
  '--enable-bulk-memory',
  '--enable-sign-ext',
  '--enable-mutable-globals',
  '--enable-nontrapping-float-to-int',
  '--enable-reference-types',
  '--enable-multivalue',
];

function step(message) {
  process.stdout.write(`bundle: ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message} (run scripts/setup.sh)`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  return result;
}

function capture(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim();
}

function lockedVersion(name) {
  const lock = readFileSync(join(ROOT, 'Cargo.lock'), 'utf8');
  const match = lock.match(new RegExp(`\\[\\[package\\]\\]\\nname = "${name}"\\nversion = "([^"]+)"`));
  if (!match) throw new Error(`${name} is not in Cargo.lock`);
  return match[1];
}

function crateVersion() {
  const manifest = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8');
  const section = manifest.slice(manifest.indexOf('[package]'));
  const match = section.match(/^version\s*=\s*"([^"]+)"/m);
  if (!match) throw new Error('no [package] version in Cargo.toml');
  return match[1];
}

/// Removes the glue's `document.currentScript` probe: it only serves the default wasm path
/// (not used: the wasm is inlined) and throws on exotic `currentScript`s (SVG scripts).
function stripScriptSource(glue) {
  const probe = /let script_src;\s*if \(typeof document !== 'undefined' && document\.currentScript !== null\) \{\s*script_src = [^\n]*\n\s*\}\n/;
  const stripped = glue.replace(probe, '');
  if (/script_src/.test(stripped)) throw new Error('the wasm-bindgen glue still reads script_src; update stripScriptSource');
  return stripped;
}

function main() {
  const started = Date.now();
  mkdirSync(WORK, { recursive: true });

  const pinned = lockedVersion('wasm-bindgen');
  const cli = capture('wasm-bindgen', ['--version']);
  if (cli === null) throw new Error('wasm-bindgen is not installed (run scripts/setup.sh)');
  if (cli !== `wasm-bindgen ${pinned}`) {
    throw new Error(`${cli} does not match wasm-bindgen ${pinned} in Cargo.lock (run scripts/setup.sh)`);
  }

  step('cargo build -p prufe --lib --release --target wasm32-unknown-unknown');
  // The target_features section must survive until wasm-bindgen reads it; wasm-opt strips it.
  run('cargo', [
    'build', '-p', 'prufe', '--lib', '--release', '--target', 'wasm32-unknown-unknown',
    '--config', 'profile.release.strip="none"',
  ]);
  const raw = join(TARGET_DIR, 'wasm32-unknown-unknown', 'release', 'prufe.wasm');

  step(`wasm-bindgen ${pinned} --target no-modules`);
  run('wasm-bindgen', ['--target', 'no-modules', '--no-typescript', '--omit-default-module-path', '--out-dir', WORK, raw]);
  const bindgenWasm = join(WORK, 'prufe_bg.wasm');
  let finalWasm = bindgenWasm;

  if (process.env.PRUFE_WASM_OPT !== '0') {
    step(`wasm-opt -O3 (${capture(WASM_OPT, ['--version']) ?? 'missing: run scripts/setup.sh'})`);
    finalWasm = join(WORK, 'prufe_bg.opt.wasm');
    run(WASM_OPT, ['-O3', ...WASM_FEATURES, '--strip-debug', '--strip-producers', bindgenWasm, '-o', finalWasm]);
  } else {
    step('wasm-opt skipped (PRUFE_WASM_OPT=0)');
  }

  const glue = stripScriptSource(readFileSync(join(WORK, 'prufe.js'), 'utf8'));
  const wasm = readFileSync(finalWasm);
  const shim = readFileSync(SHIM, 'utf8');
  const version = crateVersion();
  const placeholders = ['__PRUFE_VERSION_TEXT__', '__PRUFE_VERSION__', '/*__PRUFE_GLUE__*/', '__PRUFE_WASM_BASE64__'];
  for (const p of placeholders) {
    if (shim.split(p).length < 2) throw new Error(`js/src/shim.js lacks the placeholder ${p}`);
  }
  // Function replacers: the glue contains `$` sequences that a string replacement would expand.
  const bundle = shim
    .replace('__PRUFE_VERSION_TEXT__', () => version)
    .replaceAll('__PRUFE_VERSION__', () => JSON.stringify(version))
    .replace('/*__PRUFE_GLUE__*/', () => glue.trim())
    .replace('__PRUFE_WASM_BASE64__', () => wasm.toString('base64'));

  // A classic script, not a module: compiling it as one proves there is no import/export.
  new vm.Script(bundle, { filename: 'prufe.js' });

  mkdirSync(dirname(OUT), { recursive: true });
  const temporary = `${OUT}.${process.pid}.tmp`;
  writeFileSync(temporary, bundle);
  renameSync(temporary, OUT);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  step(`wrote js/dist/prufe.js: ${statSync(OUT).size} bytes (wasm ${wasm.length} bytes) in ${seconds} s`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`bundle: ${error.message}\n`);
  process.exit(1);
}
