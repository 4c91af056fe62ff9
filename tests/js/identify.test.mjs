// The engine's identification of a browser library's node (`prufe.identify`), the one the
// Node and Python packages both call: the path is built in the page as the Node package
// builds it (`pathInPage`), then the engine names the observed element the node is, is inside
// or holds, or says why none.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { pathInPage } from '../../node/src/verifier.js';
import { pathToFileURL } from 'node:url';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, MACHINE_MODULE, serve } from './support/env.mjs';

const { located } = (await import(pathToFileURL(MACHINE_MODULE).href)).default;

const PAGE = `<!doctype html>
<title>identify</title>
<p id="plain">Some words</p>
<main>
  <button id="save">Save</button>
  <button id="inner"><span id="label">Send</span> now</button>
  <div id="wrap"><button>Only one</button></div>
  <div id="both"><button>First</button><button>Second</button></div>
  <button id="hidden" style="display:none">Hidden</button>
  <button>Shown <span id="hidden-span" style="display:none">part</span></button>
  <x-card><span id="slotted" slot="action">Slotted</span></x-card>
  <iframe id="frame" srcdoc="<button id=framed>In frame</button>"></iframe>
</main>
<script>
  customElements.define('x-card', class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({ mode: 'open' }).innerHTML = '<button><slot name="action"></slot></button>';
    }
  });
</script>`;

let browser;
let server;
let page;

before(async () => {
  server = await serve({ pages: { '/identify.html': PAGE } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  page = await browser.newPage();
  await page.addInitScript({ path: BUNDLE });
  await page.goto(server.url('/identify.html'));
  await page.frameLocator('#frame').locator('#framed').waitFor();
  await page.evaluate(() => prufe.ready);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * What the engine answers for the element `selector` finds (in the frame `#frame` with
 * `framed`): `{ element, exact, target }`, or `{ code, message }` of its error.
 * @param {string} selector @param {{ framed?: boolean }} [options]
 */
async function identify(selector, { framed = false } = {}) {
  const handle = framed
    ? await page.frameLocator('#frame').locator(selector).elementHandle()
    : await page.$(selector);
  assert.ok(handle, `${selector} is on the page`);
  const { path, top } = await handle.evaluate(pathInPage);
  assert.equal(top, true, 'the path runs from the top document');
  return page.evaluate((p) => {
    try {
      return prufe.identify(p);
    } catch (error) {
      return { code: error.code, message: error.message };
    }
  }, path);
}

test('a node that is itself observed is named exactly', async () => {
  const found = await identify('#save');
  assert.equal(found.element.role, 'button');
  assert.equal(found.element.name, 'Save');
  assert.equal(found.exact, true);
  assert.deepEqual({ role: found.target.role, name: found.target.name }, { role: 'button', name: 'Save' });
});

test('a span inside a button is that button, not exactly', async () => {
  const found = await identify('#label');
  assert.equal(found.element.name, 'Send now');
  assert.equal(found.exact, false);
  assert.equal(found.target.name, 'Send now');
});

test('a wrapper around one observed element is that element, not exactly', async () => {
  const found = await identify('#wrap');
  assert.equal(found.element.name, 'Only one');
  assert.equal(found.exact, false);
  assert.equal(found.target.name, 'Only one');
});

test('a wrapper around several is the observed element holding it', async () => {
  const found = await identify('#both');
  assert.notEqual(found.element?.name, 'First', JSON.stringify(found));
  assert.notEqual(found.element?.name, 'Second');
  assert.equal(found.element.role, 'main');
  assert.equal(found.exact, false);
});

test('a slotted element is the element holding its slot in the custom element\'s shadow tree', async () => {
  const found = await identify('#slotted');
  assert.deepEqual({ role: found.element.role, name: found.element.name }, { role: 'button', name: 'Slotted' });
  assert.equal(found.exact, false);
  assert.equal(found.target.name, 'Slotted');
});

test('a node inside a same-origin frame is named with its frame', async () => {
  const found = await identify('#framed', { framed: true });
  assert.equal(found.element.name, 'In frame');
  assert.equal(found.exact, true);
  assert.ok(found.element.frame, 'the record says which frame');
  assert.equal(found.target.frame, found.element.frame);
});

test('a hidden node is TARGET_NOT_VISIBLE', async () => {
  // Observed but hidden: its record, no target; the machine refuses it (a hidden drag
  // destination is named by its record).
  const found = await identify('#hidden');
  assert.deepEqual({ name: found.element?.name, visible: found.element?.visible, target: found.target }, { name: 'Hidden', visible: false, target: null });
  const decided = located({ shown: "locator('#hidden')", count: 1, element: found.element, target: found.target });
  assert.equal(decided.error?.code, 'TARGET_NOT_VISIBLE', JSON.stringify(decided));
  // Hidden inside a shown button: not the button, nothing a person sees.
  const inside = await identify('#hidden-span');
  assert.equal(inside.code, 'TARGET_NOT_VISIBLE', JSON.stringify(inside));
});

test('a node with nothing observable at it is TARGET_NOT_FOUND, naming the node', async () => {
  const found = await identify('#plain');
  assert.equal(found.code, 'TARGET_NOT_FOUND', JSON.stringify(found));
  assert.match(found.message, /p#plain/);
});

test('a path that leads nowhere is TARGET_NOT_FOUND; a malformed one INVALID_ARGUMENT', async () => {
  const answers = await page.evaluate(() => {
    const code = (path) => {
      try {
        prufe.identify(path);
        return 'none';
      } catch (error) {
        return error.code;
      }
    };
    return { nowhere: code([99, 99]), malformed: code(['x']), at: prufe.nodeAt([99]) };
  });
  assert.deepEqual(answers, { nowhere: 'TARGET_NOT_FOUND', malformed: 'INVALID_ARGUMENT', at: null });
});
