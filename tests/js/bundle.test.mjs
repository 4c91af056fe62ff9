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
