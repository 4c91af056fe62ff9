#!/usr/bin/env node
// Builds the two artifacts of the prufe crate for wasm32 → wasm-bindgen (prufe-bindgen,
// --target no-modules) → wasm-opt, each with its wasm inlined:
// - js/dist/prufe.js: the in-page engine (default features, profile `page`), one classic
//   script wrapped by js/src/shim.js that installs `window.prufe`, minified by esbuild; its
//   wasm is deflated, carried as ASCII text and read back after injection by the decoder of
//   js/inflate (a wasm module of a few kilobytes, built here too);
// - js/dist/prufe-run.mjs and js/dist/prufe-run.js: the DOM-free machine module
//   (`--no-default-features --features machine`, profile `machine`), wrapped by
//   js/src/run.js, as an ES module and as a classic script that defines `prufeRun`.
//
// `node js/build.mjs --page` builds js/dist/prufe.js alone.
// Environment: PRUFE_WASM_OPT=0 skips wasm-opt (quicker local iterations; never in CI).

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import zopfli from '@gfx/zopfli';
import { transformSync } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_DIR = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(ROOT, 'target');
const WORK = join(TARGET_DIR, 'prufe-bundle');
const CARGO_HOME = resolve(process.env.CARGO_HOME || join(homedir(), '.cargo'));
const DIST = join(ROOT, 'js', 'dist');
const OUT = join(DIST, 'prufe.js');
const SHIM = join(ROOT, 'js', 'src', 'shim.js');
const RUN_OUT = join(DIST, 'prufe-run.mjs');
const RUN_SCRIPT_OUT = join(DIST, 'prufe-run.js');
const RUN_TYPES_OUT = join(DIST, 'prufe-run.d.mts');
const RUN_SHIM = join(ROOT, 'js', 'src', 'run.js');
const INFLATE_MANIFEST = join(ROOT, 'js', 'inflate', 'Cargo.toml');
// The bindgen step (tools/bindgen, installed by scripts/setup.sh).
const BINDGEN = 'prufe-bindgen';

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

/// Runs a build step, its output shown as it comes. Steps are awaited, so that the two wasm
/// builds run side by side: each ends in a long stretch on one core (LTO with one codegen
/// unit, then wasm-opt).
function runAsync(command, args) {
  return new Promise((done, failed) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (error) => failed(new Error(`${command} could not start: ${error.message} (run scripts/setup.sh)`)));
    child.on('exit', (status, signal) => {
      if (status === 0) done();
      else failed(new Error(`${command} ${args.join(' ')} exited with ${status ?? signal}`));
    });
  });
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

/// Builds the crate's cdylib with `features` under `profile`, runs wasm-bindgen and wasm-opt,
/// and returns the glue (the `currentScript` probe removed) and the final wasm bytes.
async function wasmArtifact({ label, features, profile, outName, opt = '-O3' }) {
  step(`cargo build -p prufe --lib --profile ${profile} --target wasm32-unknown-unknown ${features.join(' ')}`.trimEnd());
  // The target_features section must survive until wasm-bindgen reads it; wasm-opt strips it.
  await runAsync('cargo', [
    'build', '-p', 'prufe', '--lib', '--profile', profile, '--target', 'wasm32-unknown-unknown', ...features,
    '--config', `profile.${profile}.strip="none"`,
    // Panic locations in dependencies name their source under the cargo home; written as
    // /cargo, the engine is the same bytes whoever builds it (js/prebuilt.mjs verify).
    '--config', `build.rustflags=["--remap-path-prefix=${CARGO_HOME}=/cargo"]`,
  ]);
  const raw = join(TARGET_DIR, 'wasm32-unknown-unknown', profile, 'prufe.wasm');

  // prufe-bindgen (tools/bindgen) is `wasm-bindgen --target no-modules --no-typescript
  // --omit-default-module-path` on the same pinned wasm-bindgen-cli-support, byte for byte.
  step(`wasm-bindgen --target no-modules (${label})`);
  await runAsync(BINDGEN, ['--out-name', outName, '--out-dir', WORK, raw]);
  const bindgenWasm = join(WORK, `${outName}_bg.wasm`);
  let finalWasm = bindgenWasm;
  if (process.env.PRUFE_WASM_OPT !== '0') {
    step(`wasm-opt ${opt} (${label}; ${capture(WASM_OPT, ['--version']) ?? 'missing: run scripts/setup.sh'})`);
    finalWasm = join(WORK, `${outName}_bg.opt.wasm`);
    await runAsync(WASM_OPT, [opt, ...WASM_FEATURES, '--strip-debug', '--strip-producers', bindgenWasm, '-o', finalWasm]);
  } else {
    step(`wasm-opt skipped (${label}; PRUFE_WASM_OPT=0)`);
  }
  return {
    glue: stripScriptSource(readFileSync(join(WORK, `${outName}.js`), 'utf8')),
    wasm: readFileSync(finalWasm),
  };
}

/// An unsigned LEB128 number of `bytes` from `at` on: [value, the offset after it].
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function lebBytes(value) {
  const out = [];
  do {
    const byte = value % 128;
    value = Math.floor(value / 128);
    out.push(value > 0 ? byte | 0x80 : byte);
  } while (value > 0);
  return Buffer.from(out);
}

/// The engine's wasm and glue with its imports renamed `_0`, `_1`, … in both. wasm-bindgen names
/// every import after its binding and a hash (`__wbg_getBoundingClientRect_…`: 225 imports,
/// 7,522 characters), and the glue's import object, keyed by those names, is parsed by every
/// document the engine is injected into. Every name must appear in the glue exactly once, as a
/// key; every import must be a function.
function shortenImports({ glue, wasm }) {
  const out = [wasm.subarray(0, 8)];
  let renamed = glue;
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = leb(wasm, at + 1);
    const end = start + size;
    if (id !== 2) {
      out.push(wasm.subarray(at, end));
      at = end;
      continue;
    }
    let [count, i] = leb(wasm, start);
    const section = [lebBytes(count)];
    for (let n = 0; n < count; n++) {
      const [moduleLength, moduleAt] = leb(wasm, i);
      const [nameLength, nameAt] = leb(wasm, moduleAt + moduleLength);
      const name = wasm.subarray(nameAt, nameAt + nameLength).toString('latin1');
      const kind = wasm[nameAt + nameLength];
      if (kind !== 0) throw new Error(`the engine's import ${name} is not a function; js/build.mjs shortenImports must learn its kind`);
      const [, next] = leb(wasm, nameAt + nameLength + 1);
      const short = `_${n.toString(36)}`;
      const uses = renamed.split(new RegExp(`\\b${name}\\b`)).length - 1;
      const keys = renamed.split(new RegExp(`\\b${name}(?=\\s*:)`));
      if (uses !== 1 || keys.length !== 2) throw new Error(`the glue names the import ${name} ${uses} times, not once as a key`);
      renamed = keys.join(short);
      section.push(wasm.subarray(i, moduleAt + moduleLength), lebBytes(short.length), Buffer.from(short, 'latin1'), wasm.subarray(nameAt + nameLength, next));
      i = next;
    }
    if (i !== end) throw new Error('the engine\'s import section has bytes after its imports');
    const body = Buffer.concat(section);
    out.push(Buffer.from([2]), lebBytes(body.length), body);
    at = end;
  }
  return { glue: renamed, wasm: Buffer.concat(out) };
}

/// Fills a loader's placeholders. Function replacers: the glue contains `$` sequences that a
/// string replacement would expand.
function fill(template, file, values) {
  for (const p of Object.keys(values)) {
    if (template.split(p).length < 2) throw new Error(`${file} lacks the placeholder ${p}`);
  }
  let out = template;
  for (const [p, v] of Object.entries(values)) out = out.replaceAll(p, () => v);
  return out;
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function sizes(path, wasm, packed) {
  const bytes = statSync(path).size;
  const gzip = gzipSync(readFileSync(path), { level: 9 }).length;
  return `${bytes} bytes, ${gzip} gzipped (wasm ${wasm.length} bytes${packed ? `, ${packed.length} deflated` : ''})`;
}

/// The raw DEFLATE decoder the page bundle unpacks its engine with (js/inflate, no
/// dependencies): a wasm module of a few kilobytes exporting `memory` and `inflate_raw`.
async function inflater() {
  step('cargo build --manifest-path js/inflate/Cargo.toml --release --target wasm32-unknown-unknown');
  const targetDir = join(TARGET_DIR, 'inflate');
  await runAsync('cargo', ['build', '--manifest-path', INFLATE_MANIFEST, '--release', '--target', 'wasm32-unknown-unknown', '--target-dir', targetDir]);
  const raw = join(targetDir, 'wasm32-unknown-unknown', 'release', 'prufe_inflate.wasm');
  const optimised = join(WORK, 'prufe_inflate.opt.wasm');
  await runAsync(WASM_OPT, ['-Oz', ...WASM_FEATURES, '--strip-debug', '--strip-producers', raw, '-o', optimised]);
  return readFileSync(optimised);
}

/// `wasm` deflated and written as text (js/inflate/src/text.rs: seven ASCII characters for six
/// bytes), and proven to come back whole through the decoder the bundle uses, laid out in its
/// memory as js/src/shim.js lays it out (the output, then the deflated bytes, then the text).
///
/// The encoder is Zopfli (`@gfx/zopfli`, pinned in package.json: wasm, no native code), whose
/// output any inflater reads. Measured on the page engine's 669,592 bytes of wasm: zlib at
/// level 9 gives 280,349 bytes, Zopfli at 5 iterations 262,396 in 3.4 s (15 iterations: 262,283
/// in 4.0 s), which is 24 KB less bundle once in base64.
async function pack(wasm, decoder) {
  const packed = await new Promise((done, failed) => {
    zopfli.deflate(wasm, { numiterations: 5 }, (error, out) => (error ? failed(error) : done(Buffer.from(out))));
  });
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(decoder), {});
  const chars = packed.length + Math.ceil(packed.length / 6);
  const output = exports.memory.buffer.byteLength;
  const input = output + wasm.length;
  const text = input + packed.length;
  exports.memory.grow(Math.ceil((text + chars) / 65536) - (output >> 16));
  const heap = () => new Uint8Array(exports.memory.buffer);
  heap().set(packed, input);
  if (exports.text_encode(input, packed.length, text, chars) !== 1) throw new Error('js/inflate cannot write the deflated engine as text');
  const written = Buffer.from(heap().slice(text, text + chars));
  heap().fill(0, output, text);
  const ok = exports.text_decode(text, chars, input, packed.length) === 1
    && exports.inflate_raw(input, packed.length, output, wasm.length) === 1;
  if (!ok || !Buffer.from(exports.memory.buffer, output, wasm.length).equals(wasm)) {
    throw new Error('js/inflate does not give back the deflated engine');
  }
  return { packed, text: written.toString('latin1') };
}

async function buildPage(version) {
  const { glue, wasm } = shortenImports(await wasmArtifact({ label: 'page engine', features: [], profile: 'page', outName: 'prufe', opt: '-O3' }));
  for (const { name } of WebAssembly.Module.imports(new WebAssembly.Module(wasm))) {
    if (!new RegExp(`\\b${name}\\s*:`).test(glue)) throw new Error(`the glue has no import ${name}`);
  }
  const decoder = await inflater();
  const { packed, text } = await pack(wasm, decoder);
  const PACKED = '/*!__PRUFE_WASM_PACKED__*/';
  const template = fill(readFileSync(SHIM, 'utf8'), 'js/src/shim.js', {
    __PRUFE_VERSION_TEXT__: version,
    __PRUFE_VERSION__: JSON.stringify(version),
    '/*__PRUFE_GLUE__*/': glue.trim(),
    __PRUFE_WASM_BYTES__: String(wasm.length),
    __PRUFE_INFLATE_BASE64__: decoder.toString('base64'),
  });
  // Minified before the wasm goes in: the shim's and the glue's comments and indentation are
  // a tenth of the script. `/*!` comments (the licence line, the wasm's place) are kept.
  const minified = transformSync(template, { minify: true, legalComments: 'inline', target: 'es2017' }).code;
  const bundle = fill(minified, 'the minified js/src/shim.js', { [PACKED]: `/*!${text}*/` });
  // A classic script, not a module: compiling it as one proves there is no import/export.
  new vm.Script(bundle, { filename: 'prufe.js' });
  write(OUT, bundle);
  return `js/dist/prufe.js: ${sizes(OUT, wasm, packed)}`;
}

async function buildMachine(version) {
  const { glue, wasm } = await wasmArtifact({
    label: 'machine',
    features: ['--no-default-features', '--features', 'machine'],
    profile: 'machine',
    outName: 'prufe_run',
  });
  if (/\b(document|window)\b/.test(glue)) throw new Error('the machine glue names the DOM; it must not');
  const template = fill(readFileSync(RUN_SHIM, 'utf8'), 'js/src/run.js', {
    __PRUFE_VERSION_TEXT__: version,
    __PRUFE_VERSION__: JSON.stringify(version),
    '/*__PRUFE_GLUE__*/': glue.trim(),
    __PRUFE_WASM_BASE64__: wasm.toString('base64'),
  });
  const script = `${fill(template, 'js/src/run.js', { '/*__PRUFE_RUN_MODULE__*/': '', __PRUFE_RUN_INSTALL__: 'true' })};\n`;
  const module = `${fill(template, 'js/src/run.js', { '/*__PRUFE_RUN_MODULE__*/': 'const prufeRun = ', __PRUFE_RUN_INSTALL__: 'false' })};\n`
    + 'export const { version, ready, start, next } = prufeRun;\nexport default prufeRun;\n';
  new vm.Script(script, { filename: 'prufe-run.js' });
  write(RUN_SCRIPT_OUT, script);
  write(RUN_OUT, module);
  write(RUN_TYPES_OUT, [
    '// Types of prufe-run.mjs (written by js/build.mjs; the declarations are js/prufe-run.d.ts).',
    '/// <reference path="../prufe-run.d.ts" />',
    'export declare const version: string;',
    'export declare const ready: Promise<void>;',
    'export declare const start: PrufeRun.Api[\'start\'];',
    'export declare const next: PrufeRun.Api[\'next\'];',
    'declare const prufeRun: PrufeRun.Api;',
    'export default prufeRun;',
    '',
  ].join('\n'));
  // The module loads and answers: a goto's first need.
  const machine = await import(`${pathToFileURL(RUN_OUT).href}?${Date.now()}`);
  const { need } = machine.start({ action: { kind: 'goto', url: 'http://127.0.0.1/' } });
  if (typeof need?.need !== 'string') throw new Error('the machine module did not answer start with a need');
  return [`js/dist/prufe-run.mjs: ${sizes(RUN_OUT, wasm)}`, `js/dist/prufe-run.js: ${sizes(RUN_SCRIPT_OUT, wasm)}`];
}

async function main() {
  const started = Date.now();
  mkdirSync(WORK, { recursive: true });

  const pinned = lockedVersion('wasm-bindgen');
  const cli = capture(BINDGEN, ['--version']);
  if (cli === null) throw new Error(`${BINDGEN} is not installed (run scripts/setup.sh)`);
  if (cli !== `wasm-bindgen ${pinned}`) {
    throw new Error(`${BINDGEN} writes ${cli}, not wasm-bindgen ${pinned} of Cargo.lock (run scripts/setup.sh)`);
  }
  const version = crateVersion();
  // `--page`: the page engine alone (what `make demo` needs: the harness links the machine
  // natively).
  const pageOnly = process.argv.includes('--page');
  const [page, machine] = await Promise.all([buildPage(version), pageOnly ? [] : buildMachine(version)]);
  const written = [page, ...machine];
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const line of written) step(`wrote ${line}`);
  step(`done in ${seconds} s`);
}

main().catch((error) => {
  process.stderr.write(`bundle: ${error.message}\n`);
  process.exit(1);
});
