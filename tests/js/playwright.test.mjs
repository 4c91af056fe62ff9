// prufe through Playwright for Node (playwright-core driving /usr/bin/chromium):
// `addInitScript({ path })` before any page script, evaluation into a loaded page, double
// injection, pages that claim `window.prufe`, a CSP that refuses WebAssembly, and the
// compile off the main thread and the synchronous one of an early call. The verified click through
// the machine with Playwright is driver.test.mjs.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, bundleSource, crateVersion, serve } from './support/env.mjs';

const CSP_PAGE = '/drivers/csp-no-wasm.html';

/**
 * An init script: counts the page's synchronous (`new WebAssembly.Module`) and asynchronous
 * (`WebAssembly.compile`, `WebAssembly.compileStreaming`) compiles in `window.compiles`;
 * `withoutInflate` takes the browser's `DecompressionStream` away first, `withoutStreaming`
 * makes `compileStreaming` refuse every response.
 */
function countCompiles({ withoutInflate, withoutStreaming }) {
  const Module = WebAssembly.Module;
  const compile = WebAssembly.compile;
  const compileStreaming = WebAssembly.compileStreaming;
  if (withoutInflate) delete window.DecompressionStream;
  // `sync` counts the engine's synchronous compiles, `decoder` those of the bundle's decoder of a
  // few kilobytes (js/inflate), which reads the engine's text back before any compile.
  window.compiles = { sync: 0, decoder: 0, async: 0, refused: 0 };
  WebAssembly.compileStreaming = function (source) {
    if (withoutStreaming) {
      window.compiles.refused++;
      return Promise.reject(new TypeError('no streaming compile here'));
    }
    window.compiles.async++;
    return compileStreaming.call(WebAssembly, source);
  };
  const counting = function (bytes) {
    if (bytes.byteLength < 65536) window.compiles.decoder++;
    else window.compiles.sync++;
    return new Module(bytes);
  };
  counting.prototype = Module.prototype;
  WebAssembly.Module = counting;
  WebAssembly.compile = function (bytes) {
    window.compiles.async++;
    return compile.call(WebAssembly, bytes);
  };
}
let browser;
let server;

before(async () => {
  server = await serve({ headers: { [CSP_PAGE]: { 'content-security-policy': "script-src 'self'" } } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page in its own context; page errors and console errors are collected for assertions. */
async function openPage(t) {
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  const warnings = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  const requests = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  return { page, problems, warnings, requests };
}

/** The state a test reads back from the page once `prufe.ready` settled. */
function readState() {
  return (async () => {
    const descriptor = Object.getOwnPropertyDescriptor(window, 'prufe');
    let ready;
    try {
      await prufe.ready;
      ready = 'resolved';
    } catch (error) {
      ready = `rejected ${error.code}`;
    }
    return {
      version: prufe.version,
      ready,
      writable: descriptor.writable,
      configurable: descriptor.configurable,
      frozen: Object.isFrozen(prufe),
      methods: Object.keys(prufe).filter((key) => typeof prufe[key] === 'function').sort(),
    };
  })();
}

describe('Playwright addInitScript', () => {
  test('installs window.prufe before page scripts; ready resolves and version is the crate version', async (t) => {
    const { page, problems, requests } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/drivers/basic.html'));
    const state = await page.evaluate(readState);
    assert.equal(state.version, crateVersion());
    assert.equal(state.ready, 'resolved');
    assert.equal(state.writable, false);
    assert.equal(state.configurable, false);
    assert.equal(state.frozen, true);
    assert.deepEqual(state.methods, [
      'at', 'box', 'boxes', 'cover', 'describe', 'destination', 'diff', 'element', 'fileInput', 'fingerprint', 'focus', 'focusSelect',
      'focused', 'frameIndex', 'hash', 'hitBoxes', 'hitTest', 'identify', 'judge', 'labelInReach', 'nodeAt', 'page', 'prepare', 'quietFor', 'resolve', 'restore', 'scrollFrom',
      'scrollIntoView', 'scrollPosition', 'select', 'selection', 'settle', 'snapshot', 'stillFor', 'targetOf', 'uncover', 'value',
    ]);
    assert.deepEqual(problems, []);
    // The engine loads nothing: the only requests are the page's own.
    assert.deepEqual(requests.filter((path) => path !== '/favicon.ico'), ['/drivers/basic.html']);
  });

  test('answers right after injection: a script that runs next can call the engine synchronously', async (t) => {
    const { page, problems } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    await page.addInitScript(() => {
      try {
        window.earlyFingerprint = typeof prufe.fingerprint();
      } catch (error) {
        window.earlyFingerprint = `threw ${error.code}`;
      }
    });
    await page.goto(server.url('/drivers/basic.html'));
    assert.equal(await page.evaluate(() => window.earlyFingerprint), 'string');
    // The early call compiled the engine itself; `ready` is settled and the engine answers.
    assert.equal(await page.evaluate(async () => { await prufe.ready; return typeof prufe.fingerprint(); }), 'string');
    assert.deepEqual(problems, []);
  });

  test('leaks no global besides prufe', async (t) => {
    const { page: bare } = await openPage(t);
    await bare.goto(server.url('/drivers/basic.html'));
    const baseline = await bare.evaluate(() => Object.getOwnPropertyNames(window));
    const { page } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/drivers/basic.html'));
    const names = await page.evaluate(() => Object.getOwnPropertyNames(window));
    assert.deepEqual(names.filter((name) => !baseline.includes(name)), ['prufe']);
    assert.equal(await page.evaluate(() => typeof wasm_bindgen), 'undefined');
  });

  test('snapshot sees the page and errors carry a code', async (t) => {
    const { page } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/drivers/basic.html'));
    const result = await page.evaluate(async () => {
      await prufe.ready;
      const snapshot = prufe.snapshot();
      let stale;
      try {
        prufe.element('no-such-ref');
      } catch (error) {
        stale = { code: error.code, isError: error instanceof Error, message: error.message };
      }
      return {
        greet: snapshot.elements.filter((e) => e.role === 'button' && e.name === 'Greet').length,
        context: Object.keys(snapshot.context).sort(),
        stale,
      };
    });
    assert.equal(result.greet, 1);
    assert.deepEqual(result.context, ['epoch', 'snapshot', 'tab']);
    assert.equal(result.stale.isError, true);
    assert.match(result.stale.code, /^[A-Z_]+$/);
    assert.ok(result.stale.message.length > 0);
  });
});

describe('Playwright into a loaded page', () => {
  test('evaluating the bundle into an already loaded page installs the engine', async (t) => {
    const { page, problems } = await openPage(t);
    await page.goto(server.url('/drivers/basic.html'));
    assert.equal(await page.evaluate(() => typeof window.prufe), 'undefined');
    await page.evaluate((source) => { (0, eval)(source); }, bundleSource());
    const state = await page.evaluate(readState);
    assert.equal(state.version, crateVersion());
    assert.equal(state.ready, 'resolved');
    assert.deepEqual(problems, []);
  });

  test('injecting twice is harmless: the first engine stays, nothing is thrown', async (t) => {
    const { page, problems } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/drivers/basic.html'));
    const same = await page.evaluate(async (source) => {
      const first = window.prufe;
      const returned = (0, eval)(source);
      await prufe.ready;
      return { same: first === window.prufe, returnedSame: returned === first, fingerprint: typeof prufe.fingerprint() };
    }, bundleSource());
    assert.deepEqual(same, { same: true, returnedSame: true, fingerprint: 'string' });
    assert.deepEqual(problems, []);
  });
});

describe('Playwright and pages that claim window.prufe', () => {
  test('a page assigning its own window.prufe after injection does not replace the engine', async (t) => {
    const { page, problems } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/drivers/spoof-prufe.html'));
    const state = await page.evaluate(readState);
    assert.equal(await page.evaluate(() => window.spoofOutcome), 'ignored');
    assert.equal(state.version, crateVersion());
    assert.equal(state.ready, 'resolved');
    assert.equal(await page.evaluate(() => Array.isArray(prufe.snapshot().elements)), true);
    assert.deepEqual(problems, []);
  });

  test('evaluated into a page that already set window.prufe, the engine takes the name', async (t) => {
    const { page, problems } = await openPage(t);
    await page.goto(server.url('/drivers/spoof-prufe.html'));
    assert.equal(await page.evaluate(() => window.prufe.version), 'spoofed');
    await page.evaluate((source) => { (0, eval)(source); }, bundleSource());
    const state = await page.evaluate(readState);
    assert.equal(state.version, crateVersion());
    assert.equal(state.configurable, false);
    assert.deepEqual(problems, []);
  });

  test('a page that locked window.prufe keeps it; the engine is reachable and the conflict reported', async (t) => {
    const { page, problems, warnings } = await openPage(t);
    await page.goto(server.url('/drivers/spoof-locked.html'));
    assert.equal(await page.evaluate(() => window.lockOutcome), 'locked');
    const result = await page.evaluate(async (source) => {
      const returned = (0, eval)(source);
      const engine = globalThis[Symbol.for('prufe')];
      await engine.ready;
      return { page: window.prufe.version, engine: engine.version, returned: returned === engine };
    }, bundleSource());
    assert.deepEqual(result, { page: 'locked', engine: crateVersion(), returned: true });
    assert.ok(warnings.some((text) => text.includes('window.prufe is held by the page')), warnings.join('\n'));
    assert.deepEqual(problems, []);
  });
});

describe('Playwright and WebAssembly refused', () => {
  test('a CSP without wasm-unsafe-eval rejects ready with WASM_BLOCKED and calls throw it, never crash', async (t) => {
    const { page, problems } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url(CSP_PAGE));
    const result = await page.evaluate(async () => {
      let ready;
      try {
        await prufe.ready;
        ready = 'resolved';
      } catch (error) {
        ready = { code: error.code, isError: error instanceof Error };
      }
      let call;
      try {
        prufe.snapshot();
        call = 'returned';
      } catch (error) {
        call = error.code;
      }
      return { ready, call, version: prufe.version };
    });
    assert.deepEqual(result, { ready: { code: 'WASM_BLOCKED', isError: true }, call: 'WASM_BLOCKED', version: crateVersion() });
    assert.deepEqual(problems.filter((p) => p.startsWith('pageerror')), []);
  });

  test('with bypassCSP the engine runs on that page', async (t) => {
    const context = await browser.newContext({ bypassCSP: true });
    t.after(() => context.close());
    const page = await context.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url(CSP_PAGE));
    const buttons = await page.evaluate(async () => {
      await prufe.ready;
      return prufe.snapshot().elements.filter((e) => e.role === 'button').map((e) => e.name);
    });
    assert.deepEqual(buttons, ['Save']);
  });

  test('when the synchronous compile is refused, calls throw NOT_READY until ready resolves', async (t) => {
    const { page, problems } = await openPage(t);
    // Chromium refuses large synchronous compiles on the main thread with a RangeError (the
    // decoder's few kilobytes are compiled).
    await page.addInitScript(() => {
      const Module = WebAssembly.Module;
      const refusing = function (bytes) {
        if (bytes.byteLength < 65536) return new Module(bytes);
        throw new RangeError('WebAssembly.Module(): buffer size is larger than the limit');
      };
      refusing.prototype = Module.prototype;
      WebAssembly.Module = refusing;
    });
    await page.addInitScript({ path: BUNDLE });
    await page.addInitScript(() => {
      try {
        prufe.fingerprint();
        window.early = 'answered';
      } catch (error) {
        window.early = error.code;
      }
    });
    await page.goto(server.url('/drivers/basic.html'));
    const result = await page.evaluate(async () => {
      await prufe.ready;
      return { early: window.early, later: typeof prufe.fingerprint() };
    });
    assert.deepEqual(result, { early: 'NOT_READY', later: 'string' });
    assert.deepEqual(problems, []);
  });

  test('without the browser\'s inflate, the decoder unpacks the engine, which still compiles asynchronously', async (t) => {
    const { page, problems } = await openPage(t);
    await page.addInitScript(countCompiles, { withoutInflate: true });
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/drivers/basic.html'));
    const result = await page.evaluate(async () => {
      await prufe.ready;
      return { compiles: { ...window.compiles }, works: typeof prufe.fingerprint() };
    });
    // The one synchronous compile is the decoder's (a few kilobytes), not the engine's.
    assert.deepEqual(result, { compiles: { sync: 0, decoder: 1, async: 1, refused: 0 }, works: 'string' });
    assert.deepEqual(problems, []);
  });

  test('where the streaming compile is refused, the engine is inflated to the end and compiled', async (t) => {
    const { page, problems } = await openPage(t);
    await page.addInitScript(countCompiles, { withoutStreaming: true });
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/drivers/basic.html'));
    const result = await page.evaluate(async () => {
      await prufe.ready;
      return { compiles: { ...window.compiles }, works: typeof prufe.fingerprint() };
    });
    assert.deepEqual(result, { compiles: { sync: 0, decoder: 1, async: 1, refused: 1 }, works: 'string' });
    assert.deepEqual(problems, []);
  });

  for (const when of ['before the compile ends', 'after it ended']) {
    test(`a page that replaces WebAssembly ${when} still gets the engine`, async (t) => {
      const { page, problems } = await openPage(t);
      await page.addInitScript({ path: BUNDLE });
      // The page's first script (before the compile ends) or a later one takes WebAssembly
      // away, on the global and on the object the loader found at injection.
      const replace = () => {
        const refuse = () => {
          throw new Error('replaced by the page');
        };
        WebAssembly.compile = refuse;
        WebAssembly.compileStreaming = refuse;
        WebAssembly.instantiate = refuse;
        window.WebAssembly = { Module: refuse, Instance: refuse, compile: refuse };
      };
      if (when === 'before the compile ends') await page.addInitScript(replace);
      await page.goto(server.url('/drivers/basic.html'));
      if (when === 'after it ended') {
        await page.evaluate(() => prufe.ready);
        await page.evaluate(replace);
      }
      const result = await page.evaluate(async () => {
        await prufe.ready;
        return { replaced: typeof WebAssembly.compileStreaming, buttons: prufe.snapshot().elements.filter((e) => e.role === 'button').length };
      });
      assert.deepEqual(result, { replaced: 'undefined', buttons: 1 });
      assert.deepEqual(problems, []);
    });
  }

  test('a page that never leaves its main thread idle still gets the engine ready', async (t) => {
    const { page, problems } = await openPage(t);
    await page.addInitScript({ path: BUNDLE });
    // From the first script on, the page keeps a task queued at all times (a message
    // ping-pong, 1 ms of work each): the engine's background task alone would never run.
    await page.addInitScript(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const until = performance.now() + 1;
        while (performance.now() < until);
        channel.port2.postMessage(null);
      };
      channel.port2.postMessage(null);
    });
    await page.goto(server.url('/drivers/basic.html'));
    const result = await page.evaluate(async () => {
      await prufe.ready;
      return typeof prufe.fingerprint();
    });
    assert.equal(result, 'string');
    assert.deepEqual(problems, []);
  });

  test('the engine compiles off the main thread: no synchronous compile unless a call comes first', async (t) => {
    const { page, problems } = await openPage(t);
    // Counts the page's compiles of each kind, and notes whether the engine's own compile had
    // started by the time the page's first script ran.
    await page.addInitScript(countCompiles, { withoutInflate: false });
    await page.addInitScript({ path: BUNDLE });
    await page.addInitScript(() => {
      window.atFirstScript = { ...window.compiles };
    });
    await page.goto(server.url('/drivers/basic.html'));
    const result = await page.evaluate(async () => {
      await prufe.ready;
      const compiled = { ...window.compiles };
      return { atFirstScript: window.atFirstScript, compiled, works: typeof prufe.fingerprint(), after: { ...window.compiles } };
    });
    assert.deepEqual(result, {
      atFirstScript: { sync: 0, decoder: 0, async: 0, refused: 0 },
      compiled: { sync: 0, decoder: 1, async: 1, refused: 0 },
      works: 'string',
      after: { sync: 0, decoder: 1, async: 1, refused: 0 },
    });
    assert.deepEqual(problems, []);
  });
});
