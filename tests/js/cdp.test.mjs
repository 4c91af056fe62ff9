// prufe through the raw DevTools protocol over a plain WebSocket: the bundle is registered
// with `Page.addScriptToEvaluateOnNewDocument` in an isolated world, and calls are evaluated
// in that world's execution context. Page scripts can neither see nor replace the engine.
// The driver of the machine runs there too, through its DevTools port (pointer input).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cdpPort, verify } from '../../node/src/driver.js';
import { bundleSource, connectCdp, crateVersion, launchChromium, serve } from './support/env.mjs';

const WORLD = 'prufe';
const CSP_PAGE = '/drivers/csp-no-wasm.html';
let chromium;
let cdp;
let server;

before(async () => {
  server = await serve({ headers: { [CSP_PAGE]: { 'content-security-policy': "script-src 'self'" } } });
  chromium = await launchChromium();
  cdp = await connectCdp(chromium.wsEndpoint);
});

after(async () => {
  cdp?.close();
  await chromium?.close();
  await server?.close();
});

/**
 * A fresh tab with the bundle registered in the isolated world `WORLD`. `goto` navigates and
 * waits for the load event; `evaluate(expression, world)` runs in that world (or the page's
 * main world when `world` is null) and returns the value or throws the exception text.
 */
async function openTab(t, { injections = 1 } = {}) {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  t.after(() => cdp.send('Target.closeTarget', { targetId }).catch(() => {}));
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const contexts = new Map();
  const offs = [
    cdp.on('Runtime.executionContextCreated', ({ context }, from) => {
      if (from === sessionId) contexts.set(context.id, context);
    }),
    cdp.on('Runtime.executionContextDestroyed', ({ executionContextId }, from) => {
      if (from === sessionId) contexts.delete(executionContextId);
    }),
    cdp.on('Runtime.executionContextsCleared', (_, from) => {
      if (from === sessionId) contexts.clear();
    }),
  ];
  t.after(() => offs.forEach((off) => off()));
  const problems = [];
  offs.push(cdp.on('Runtime.exceptionThrown', ({ exceptionDetails }, from) => {
    if (from === sessionId) problems.push(exceptionDetails.exception?.description ?? exceptionDetails.text);
  }));
  await cdp.send('Page.enable', {}, sessionId);
  await cdp.send('Runtime.enable', {}, sessionId);
  const source = bundleSource();
  for (let i = 0; i < injections; i++) {
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source, worldName: WORLD }, sessionId);
  }
  const { frameTree } = await cdp.send('Page.getFrameTree', {}, sessionId);
  const frameId = frameTree.frame.id;

  const contextOf = (world) => {
    for (const context of contexts.values()) {
      if (context.auxData?.frameId !== frameId) continue;
      if (world === null ? context.auxData?.isDefault : context.name === world) return context.id;
    }
    throw new Error(`no execution context for world ${world ?? 'main'}`);
  };

  return {
    sessionId,
    problems,
    worldContext: () => contextOf(WORLD),
    send: (method, params = {}) => cdp.send(method, params, sessionId),
    async goto(path) {
      const loaded = cdp.waitFor('Page.loadEventFired', (_, from) => from === sessionId);
      const { errorText } = await cdp.send('Page.navigate', { url: server.url(path) }, sessionId);
      if (errorText) throw new Error(`navigation failed: ${errorText}`);
      await loaded;
    },
    async evaluate(expression, world = WORLD) {
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
        expression,
        contextId: contextOf(world),
        awaitPromise: true,
        returnByValue: true,
      }, sessionId);
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      return result.value;
    },
  };
}

const READ_STATE = `(async () => {
  const descriptor = Object.getOwnPropertyDescriptor(window, 'prufe');
  let ready;
  try { await prufe.ready; ready = 'resolved'; } catch (error) { ready = 'rejected ' + error.code; }
  return {
    version: prufe.version,
    ready,
    configurable: descriptor.configurable,
    buttons: ready === 'resolved' ? prufe.snapshot().elements.filter((e) => e.role === 'button').map((e) => e.name) : null,
  };
})()`;

describe('raw CDP, isolated world', () => {
  test('the engine answers in its isolated world; ready resolves and version is the crate version', async (t) => {
    const tab = await openTab(t);
    await tab.goto('/drivers/basic.html');
    const state = await tab.evaluate(READ_STATE);
    assert.deepEqual(state, { version: crateVersion(), ready: 'resolved', configurable: false, buttons: ['Greet'] });
    assert.equal(await tab.evaluate('typeof window.prufe', null), 'undefined');
    assert.deepEqual(tab.problems, []);
  });

  test('page scripts cannot see or spoof the engine: the page keeps its own window.prufe', async (t) => {
    const tab = await openTab(t);
    await tab.goto('/drivers/spoof-prufe.html');
    assert.equal(await tab.evaluate('window.prufe.version', null), 'spoofed');
    assert.equal(await tab.evaluate('window.spoofOutcome', null), 'replaced');
    const state = await tab.evaluate(READ_STATE);
    assert.deepEqual(state, { version: crateVersion(), ready: 'resolved', configurable: false, buttons: ['Pay'] });
    assert.deepEqual(tab.problems, []);
  });

  test('the isolated world sees DOM changes the page makes', async (t) => {
    const tab = await openTab(t);
    await tab.goto('/drivers/basic.html');
    const before = await tab.evaluate('prufe.fingerprint()');
    await tab.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<button>Added</button>')", null);
    const after = await tab.evaluate('prufe.fingerprint()');
    assert.notEqual(before, after);
    const buttons = await tab.evaluate("prufe.snapshot().elements.filter((e) => e.role === 'button').map((e) => e.name)");
    assert.deepEqual(buttons, ['Greet', 'Added']);
  });

  test('injecting twice into the same world is harmless', async (t) => {
    const tab = await openTab(t, { injections: 2 });
    await tab.goto('/drivers/basic.html');
    const state = await tab.evaluate(READ_STATE);
    assert.deepEqual(state, { version: crateVersion(), ready: 'resolved', configurable: false, buttons: ['Greet'] });
    assert.deepEqual(tab.problems, []);
  });

  test('a CSP without wasm-unsafe-eval also binds the isolated world: WASM_BLOCKED, no crash', async (t) => {
    const tab = await openTab(t);
    await tab.goto(CSP_PAGE);
    const state = await tab.evaluate(READ_STATE);
    assert.deepEqual(state, { version: crateVersion(), ready: 'rejected WASM_BLOCKED', configurable: false, buttons: null });
    const call = await tab.evaluate('(() => { try { prufe.snapshot(); return "returned"; } catch (error) { return error.code; } })()');
    assert.equal(call, 'WASM_BLOCKED');
    assert.deepEqual(tab.problems, []);
  });

  test('with Page.setBypassCSP the engine runs on that page', async (t) => {
    const tab = await openTab(t);
    await cdp.send('Page.setBypassCSP', { enabled: true }, tab.sessionId);
    await tab.goto(CSP_PAGE);
    const state = await tab.evaluate(READ_STATE);
    assert.deepEqual(state, { version: crateVersion(), ready: 'resolved', configurable: false, buttons: ['Save'] });
    assert.deepEqual(tab.problems, []);
  });
});

const ADD_SHIRT = {
  action: { kind: 'click', target: { role: 'button', name: 'Add Shirt M' } },
  intent: 'add Shirt M to the cart',
};

describe('raw CDP verified click through the machine', () => {
  test('a recycled row is caught: MISMATCH naming the neighbour, undone, the cart empty', async (t) => {
    const tab = await openTab(t);
    await tab.goto('/recycled-list.html');
    const { record } = await verify(cdpPort(tab.send, tab.worldContext), ADD_SHIRT);
    assert.equal(record.verdict, 'MISMATCH', record.reason);
    assert.equal(record.error?.code, 'VERIFICATION_FAILED');
    assert.match(`${record.attributedTo} ${record.reason}`, /Trousers L/);
    assert.ok(record.lines.some((line) => line.includes('Trousers L')), record.lines.join('\n'));
    assert.ok(record.undone >= 1);
    assert.equal(await tab.evaluate("document.querySelectorAll('#cart-items li').length"), 0);
    assert.deepEqual(tab.problems, []);
  });

  test('an honest click is confirmed: MATCH', async (t) => {
    const tab = await openTab(t);
    await tab.goto('/shop.html');
    const { record } = await verify(cdpPort(tab.send, tab.worldContext), ADD_SHIRT);
    assert.equal(record.verdict, 'MATCH', record.reason);
    assert.deepEqual(tab.problems, []);
  });
});
