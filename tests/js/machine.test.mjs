// The DOM-free machine module (js/dist/prufe-run.mjs, js/dist/prufe-run.js) outside any
// browser: it loads in Node with no native addon, answers scripted turns of a verified click
// the way src/core/run decides them, and throws the page engine's typed errors. As a classic
// script it defines `prufeRun` and nothing else, so a driver can evaluate it anywhere.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { MACHINE_MODULE, MACHINE_SCRIPT, built, crateVersion } from './support/env.mjs';

built(MACHINE_MODULE);
const machine = await import(pathToFileURL(MACHINE_MODULE).href);
const { start, next } = machine;

const CLICK = {
  action: { kind: 'click', target: { role: 'button', name: 'Add Shirt M' } },
  intent: 'add Shirt M to the cart',
};

/** A snapshot of the shop with the one button, as `prufe.snapshot()` gives it. */
function shop(snapshot, extra = []) {
  const element = (ref, role, name, region, more = {}) => ({
    ref, role, name, region, frame: '', href: null, value: null, checked: null, pressed: null,
    selected: null, expanded: null, disabled: false, visible: true, inViewport: true, focused: false,
    sensitive: false, ...more,
  });
  return {
    context: { tab: 't-1', epoch: 7, snapshot },
    hasMore: false,
    elements: [element('e1-ab12', 'button', 'Add Shirt M', 'list'), ...extra.map((e) => element(...e))],
    texts: [],
  };
}

test('the ES module loads in Node: start, next, version, ready; nothing imported', async () => {
  assert.equal(machine.version, crateVersion());
  assert.equal(await machine.ready, undefined);
  assert.equal(machine.default.start, start);
  assert.doesNotMatch(built(MACHINE_MODULE), /^\s*import\s/m);
});

test('scripted turns of a click: fingerprint, settle, observe, describe, prepare', () => {
  let { run, need } = start(CLICK);
  assert.deepEqual(need, { need: 'fingerprint' });
  ({ run, need } = next(run, { answer: 'fingerprint', fingerprint: 'f0' }));
  assert.deepEqual(need, { need: 'settle', since: null, pollMs: 50, quietMs: 250, timeoutMs: 5000, stopOnChange: true, quickMs: 50 });
  ({ run, need } = next(run, { answer: 'settled', fingerprint: 'f0', stable: true, changed: false, waitedMs: 260 }));
  assert.deepEqual(need, { need: 'observe', sensitive: [] });
  ({ run, need } = next(run, { answer: 'observed', snapshot: shop('s1') }));
  assert.deepEqual(need, { need: 'describe', ref: 'e1-ab12' });
  ({ run, need } = next(run, { answer: 'described', element: shop('s1').elements[0] }));
  assert.deepEqual(need, { need: 'prepare', ref: 'e1-ab12', hitTest: true });
  // The run is plain JSON: a driver may keep it as text and hand it back as text.
  const text = JSON.stringify(run);
  const again = next(text, JSON.stringify({ answer: 'prepared', point: { x: 40, y: 12 } }));
  assert.deepEqual(again.need, { need: 'input', gesture: { kind: 'moveTo', at: { x: 40, y: 12 } } });
  assert.deepEqual(next(run, { answer: 'prepared', point: { x: 40, y: 12 } }), again);
});

test('a policy and timing reach the needs', () => {
  const { need } = next(start(CLICK, { timing: { quietMs: 100, timeoutMs: 900 } }).run, { answer: 'fingerprint', fingerprint: 'f' });
  assert.equal(need.quietMs, 100);
  assert.equal(need.timeoutMs, 900);
});

test('defaults() is the policy a run follows where the driver leaves a field out', () => {
  const d = machine.default.defaults();
  assert.deepEqual(d, { maxAttempts: 2, ambiguous: 'reject', timing: { pollMs: 50, quietMs: 250, timeoutMs: 5000, quickMs: 50 }, regions: [], ignoreRegions: [] });
  const { need } = start(CLICK, { timing: {} }, null);
  assert.equal(need.need, 'fingerprint');
  d.timing.timeoutMs = 1;
  assert.equal(machine.default.defaults().timing.timeoutMs, 5000, 'a new object on every call');
});

test('transient() lists the codes of a page that cannot answer now, the ones every driver asks again on', () => {
  const codes = machine.default.transient();
  for (const code of ['NOT_READY', 'BROWSER_ERROR', 'TIMEOUT']) assert.ok(codes.includes(code), code);
  for (const code of ['TARGET_NOT_FOUND', 'VERIFICATION_FAILED', 'WASM_BLOCKED']) assert.ok(!codes.includes(code), code);
  codes.push('X');
  assert.ok(!machine.default.transient().includes('X'), 'a new array on every call');
});

test('dialogs() words each dialog a step heard, the message capped, at most 20', () => {
  const { dialogs } = machine.default;
  assert.deepEqual(dialogs([]), []);
  assert.deepEqual(dialogs([
    { type: 'alert', message: 'Saved!', accepted: false },
    { type: 'prompt', message: 'Say "hi"\nnow', accepted: true },
  ]), ['alert "Saved!" dismissed', 'prompt "Say \\"hi\\"\\nnow" accepted']);
  assert.deepEqual(dialogs([{ type: 'alert', message: 'é'.repeat(125), accepted: false }]), [`alert "${'é'.repeat(120)}…" dismissed`]);
  const many = Array.from({ length: 25 }, (_, i) => ({ type: 'alert', message: String(i), accepted: false }));
  assert.deepEqual(dialogs(many), many.slice(0, 20).map((d) => `alert "${d.message}" dismissed`));
  assert.throws(() => dialogs([{ type: 'alert', message: 'x' }]), (e) => e.name === 'PrufeError' && e.code === 'INVALID_ARGUMENT');
});

test('secretForms() and scrub() are the one redaction rule: forms, keys, nested strings, longest first', () => {
  const { secretForms, scrub } = machine.default;
  const forms = secretForms(['pw', 'a b&c', '4111 1111', '4111 1111 1111']);
  assert.deepEqual(forms, [
    '4111%201111%201111', '4111 1111 1111', '4111+1111+1111', '4111%201111', '4111 1111', '4111+1111',
    'a%20b%26c', 'a+b%26c', 'a b&c',
  ]);
  assert.deepEqual(secretForms(['a b&c', '4111 1111 1111', '4111 1111']), forms, 'the order of registration does not matter');
  assert.deepEqual(
    scrub(forms, { 'a+b%26c': ['card 4111 1111 1111, then 4111 1111', 3, null, { k: 'x a%20b%26c y' }], pw: 'pw' }),
    { '[redacted]': ['card [redacted], then [redacted]', 3, null, { k: 'x [redacted] y' }], pw: 'pw' },
  );
  assert.equal(scrub([], 'a b&c'), 'a b&c');
  const short = secretForms(['hunter2', 'act', 'dac']);
  assert.equal(scrub(short, 'pw hunter2, act, redacted'), 'pw [redacted], [redacted], red[redacted]ed', 'a short secret is not found in the word another became');
  assert.throws(() => secretForms('a b&c'), (e) => e.name === 'PrufeError' && e.code === 'INVALID_ARGUMENT');
});

test('located() decides a library element\'s target for both packages, and refuses bad input', () => {
  const { located } = machine.default;
  const element = {
    ref: 'e1', role: 'button', name: 'Pay', region: 'main', frame: '', href: null, value: null, checked: null, pressed: null,
    selected: null, expanded: null, disabled: false, visible: true, inViewport: true, focused: false, sensitive: false,
  };
  const target = { role: 'button', name: 'Pay', region: 'main' };
  assert.deepEqual(located({ shown: "locator('#pay')", count: 1, element, target }), { target });
  assert.deepEqual(located({ shown: "locator('#pay')", count: 0 }), {
    error: { code: 'TARGET_NOT_FOUND', message: "locator('#pay') matches no element; nothing was done" },
  });
  const hidden = located({ shown: "locator('#pay')", count: 1, element: { ...element, visible: false }, target: null });
  assert.equal(hidden.error?.code, 'TARGET_NOT_VISIBLE');
  assert.deepEqual(located({ shown: 'x', count: 1, place: true, element: { ...element, visible: false } }), { target });
  assert.throws(() => located({ count: 1 }), (e) => e.name === 'PrufeError' && e.code === 'INVALID_ARGUMENT');
});

test('a target that resolves to nothing ends the step with its typed error and no verdict', () => {
  let { run } = start({ action: { kind: 'click', target: { role: 'button', name: 'Pay' } } });
  ({ run } = next(run, { answer: 'fingerprint', fingerprint: 'f0' }));
  ({ run } = next(run, { answer: 'settled', fingerprint: 'f0', stable: true, changed: false, waitedMs: 250 }));
  const { need } = next(run, { answer: 'observed', snapshot: shop('s1') });
  assert.equal(need.need, 'done');
  assert.equal(need.record.verdict, null);
  assert.equal(need.record.ok, false);
  assert.equal(need.record.error.code, 'TARGET_NOT_FOUND');
  assert.equal(need.record.attempts, 1);
});

/** The error `fn` throws. */
function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('nothing was thrown');
}

test('malformed input throws the page engine\'s error shape: PrufeError with a code', () => {
  const { run } = start(CLICK);
  const cases = [
    [() => next(run, { answer: 'teleported' }), 'INVALID_ARGUMENT'],
    [() => next(run, 'not json'), 'INVALID_ARGUMENT'],
    [() => next({ phase: 'nowhere' }, { answer: 'sent' }), 'INVALID_ARGUMENT'],
    [() => start({ action: { kind: 'teleport' } }), 'INVALID_ACTION'],
    [() => start(undefined), 'INVALID_ACTION'],
    [() => start(CLICK, { maxAttempts: 'two' }), 'INVALID_OPTIONS'],
    [() => start(CLICK, null, { fingerprint: 'f' }), 'INVALID_SNAPSHOT'],
  ];
  for (const [fn, code] of cases) {
    const error = thrown(fn);
    assert.ok(error instanceof Error, String(error));
    assert.equal(error.name, 'PrufeError');
    assert.equal(error.code, code, error.message);
    assert.ok(error.message.length > 0);
  }
  assert.match(thrown(cases[2][0]).message, /pass back the run the last call returned/);
});

test('an answer that does not fit the need ends the run: done, INVALID_ARGUMENT, nothing judged', () => {
  const { run } = start(CLICK);
  const { need } = next(run, { answer: 'sent' });
  assert.equal(need.need, 'done');
  assert.equal(need.record.error.code, 'INVALID_ARGUMENT');
  assert.match(need.record.error.message, /'sent' does not fit the last need \('fingerprint'\)/);
  assert.equal(need.record.verdict, null);
});

test('the classic script defines prufeRun and nothing else; evaluating it twice keeps the first', async () => {
  const source = built(MACHINE_SCRIPT);
  assert.doesNotThrow(() => new vm.Script(source, { filename: 'prufe-run.js' }));
  assert.doesNotMatch(source, /^\s*(import|export)\s/m);
  const sandbox = vm.createContext({ TextDecoder, TextEncoder });
  const before = new Set(vm.runInContext('Object.getOwnPropertyNames(globalThis)', sandbox));
  const first = vm.runInContext(source, sandbox);
  const added = vm.runInContext('Object.getOwnPropertyNames(globalThis)', sandbox).filter((n) => !before.has(n));
  assert.deepEqual([...added], ['prufeRun']);
  assert.equal(vm.runInContext(source, sandbox), first);
  const need = vm.runInContext(`(async () => {
    await prufeRun.ready;
    return prufeRun.start(${JSON.stringify(CLICK)}).need.need;
  })()`, sandbox);
  assert.equal(await need, 'fingerprint');
  assert.equal(vm.runInContext('prufeRun.version', sandbox), crateVersion());
});

test('without WebAssembly the script still loads: ready rejects and calls throw WASM_BLOCKED', async () => {
  const sandbox = vm.createContext({ TextDecoder, TextEncoder });
  vm.runInContext('delete globalThis.WebAssembly;', sandbox);
  vm.runInContext(built(MACHINE_SCRIPT), sandbox);
  const result = await vm.runInContext(`(async () => {
    let ready;
    try { await prufeRun.ready; ready = 'resolved'; } catch (error) { ready = error.code; }
    let call;
    try { prufeRun.start({}); call = 'returned'; } catch (error) { call = error.code; }
    return ready + ' ' + call;
  })()`, sandbox);
  assert.equal(result, 'WASM_BLOCKED WASM_BLOCKED');
});
