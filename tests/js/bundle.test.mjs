// The bundle as a script, outside any browser: it is one classic script, it inlines the wasm
// (no fetch, no import), and where WebAssembly does not exist at all it still installs
// `prufe`, rejects `ready` with WASM_BLOCKED and throws that code from every call.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { bundleSource, crateVersion } from './support/env.mjs';

test('the bundle is one classic script with the wasm inlined: no import, export or wasm path', () => {
  const source = bundleSource();
  assert.doesNotThrow(() => new vm.Script(source, { filename: 'prufe.js' }));
  assert.doesNotMatch(source, /^\s*(import|export)\s/m);
  assert.doesNotMatch(source, /import\.meta|_bg\.wasm|document\.currentScript/);
});

/** Runs the bundle in `sandbox` and reads back what a caller would see. */
async function runIn(sandbox) {
  vm.runInContext('delete globalThis.WebAssembly;', sandbox);
  const before = new Set(vm.runInContext('Object.getOwnPropertyNames(globalThis)', sandbox));
  assert.doesNotThrow(() => vm.runInContext(bundleSource(), sandbox));
  const added = vm.runInContext('Object.getOwnPropertyNames(globalThis)', sandbox).filter((n) => !before.has(n));
  assert.deepEqual([...added], ['prufe']);
  const result = await vm.runInContext(`(async () => {
    let ready;
    try { await prufe.ready; ready = 'resolved'; } catch (error) { ready = error.code; }
    let call;
    try { prufe.fingerprint(); call = 'returned'; } catch (error) { call = error.code; }
    return { ready, call, version: prufe.version };
  })()`, sandbox);
  return { ...result };
}

test('without WebAssembly: prufe is installed, ready rejects WASM_BLOCKED, calls throw it', async () => {
  const sandbox = vm.createContext({ console: { warn() {}, error() {} }, TextDecoder, TextEncoder });
  assert.deepEqual(await runIn(sandbox), { ready: 'WASM_BLOCKED', call: 'WASM_BLOCKED', version: crateVersion() });
});

test('in a bare realm where even the glue cannot start, injection still throws nothing', async () => {
  const sandbox = vm.createContext({});
  assert.deepEqual(await runIn(sandbox), { ready: 'WASM_BLOCKED', call: 'WASM_BLOCKED', version: crateVersion() });
});

test('the bundle is ASCII, and the text of the engine in its comment holds no line break and no /', () => {
  const source = bundleSource();
  assert.match(source, /^[\x01-\x7e\n]*$/);
  const at = source.indexOf('/*!', 1);
  const text = source.slice(at + 3, source.indexOf('*/', at));
  assert.ok(text.length > 100_000, `the engine's comment is ${text.length} characters`);
  assert.doesNotMatch(text, /[\n\v\f\r\x1c-\x1e/<]/);
});

test('the engine\'s imports go by short names, not by wasm-bindgen\'s binding and hash', () => {
  assert.doesNotMatch(bundleSource(), /__wbg_\w+_[0-9a-f]{16}\b/);
});

/** `ready` and a call in a realm with WebAssembly and `globals` but no browser: the decoder of
 * the bundle reads the engine's text back and inflates it, and the engine compiles. */
async function compiledIn(globals) {
  const sandbox = vm.createContext({ console: { warn() {}, error() {} }, TextDecoder, WebAssembly, ...globals });
  vm.runInContext(bundleSource(), sandbox);
  return vm.runInContext(`prufe.ready.then(() => 'resolved', (error) => error.code + ': ' + error.message)`, sandbox);
}

test('outside a browser the engine is read back from its text, inflated and compiled', async () => {
  assert.equal(await compiledIn({ TextEncoder }), 'resolved');
});

test('without TextEncoder.prototype.encodeInto the engine is read back from its text character by character', async () => {
  class TextEncoderWithoutInto {
    encode(text) {
      return new TextEncoder().encode(text);
    }
  }
  assert.equal(await compiledIn({ TextEncoder: TextEncoderWithoutInto }), 'resolved');
});
