// The compact wire form of a snapshot (`prufe.snapshot({ wire: true })`, read back with
// js/wire.mjs): on every fixture page it decodes to exactly the snapshot object the page
// would have returned, in a fraction of the bytes; bad input is a typed error.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { decodeSnapshot, snapshotId } from '../../js/wire.mjs';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, ROOT, serve } from './support/env.mjs';

let browser;
let server;

before(async () => {
  server = await serve();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Every fixture page but those that block wasm, navigate away or replace the main world's
 * globals (covered in isolated worlds by the harness suites). */
function fixturePages() {
  const pages = [];
  for (const dir of ['', 'hostile/', 'engine/']) {
    for (const f of readdirSync(`${ROOT}/fixtures/${dir}`)) {
      if (f.endsWith('.html') && !/csp|navigate|kill|spoof|override|patched/.test(f)) pages.push(`/${dir}${f}`);
    }
  }
  return pages;
}

/** An object snapshot and a wire snapshot taken in the same task: the page cannot change
 * between. The time budget is out of the way: on a busy machine the 2 s default may cut one
 * walk of the 12,000-element page and not the other. */
function both() {
  return prufe.ready.then(() => {
    const object = prufe.snapshot({ maxElements: 20000, budgetMs: 120000 });
    const wire = prufe.snapshot({ maxElements: 20000, budgetMs: 120000, wire: true });
    return { object, wire, json: JSON.stringify(object).length };
  });
}

test('on every fixture page the wire form decodes to the snapshot object', async () => {
  const pages = fixturePages();
  assert.ok(pages.length >= 30, `only ${pages.length} fixture pages`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    let wireBytes = 0;
    let jsonBytes = 0;
    let elements = 0;
    for (const path of pages) {
      const page = await context.newPage();
      await page.addInitScript({ path: BUNDLE });
      await page.goto(server.url(path));
      const { object, wire, json } = await page.evaluate(both);
      assert.equal(typeof wire, 'string', path);
      const decoded = decodeSnapshot(wire);
      assert.deepEqual(decoded.elements, object.elements, path);
      assert.deepEqual(decoded.texts, object.texts, path);
      assert.equal(decoded.hasMore, object.hasMore, path);
      assert.equal(decoded.context.tab, object.context.tab, path);
      assert.equal(decoded.context.epoch, object.context.epoch, path);
      // Field for field and in the same order: the JSON a caller would write is the same.
      assert.equal(JSON.stringify(decoded.elements), JSON.stringify(object.elements), path);
      wireBytes += wire.length;
      jsonBytes += json;
      elements += object.elements.length;
      await page.close();
    }
    assert.ok(elements > 1000, `only ${elements} elements seen`);
    assert.ok(wireBytes * 2 < jsonBytes, `wire ${wireBytes} bytes against JSON ${jsonBytes}`);
  } finally {
    await context.close();
  }
});

test('a list page moves about a sixth of the bytes', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/shop.html'));
    const sizes = await page.evaluate(async () => {
      await prufe.ready;
      const list = document.createElement('ul');
      list.id = 'many';
      for (let i = 0; i < 1000; i++) {
        const li = document.createElement('li');
        li.innerHTML = `<button>Add item ${i}</button> <a href="#i${i}">Item ${i}</a>`;
        list.append(li);
      }
      document.body.append(list);
      return { wire: prufe.snapshot({ wire: true }).length, json: JSON.stringify(prufe.snapshot()).length };
    });
    assert.ok(sizes.wire * 4 < sizes.json, JSON.stringify(sizes));
  } finally {
    await context.close();
  }
});

test('anything but a wire snapshot is INVALID_SNAPSHOT', () => {
  const good = JSON.stringify({ wire: 2, context: { tab: 't', epoch: 1, snapshot: 's1' }, hasMore: false, tag: 'x', strings: ['', 'button'], elements: [[0, 1, 'Go', 0, 2]], texts: [] });
  assert.equal(decodeSnapshot(good).elements[0].ref, 'e1-x');
  assert.equal(decodeSnapshot(good).elements[0].name, 'Go');
  const row = '[0,1,"Go",0,2]';
  for (const bad of ['', 'null', '{}', '[1]', good.replace('"wire":2', '"wire":1'), good.replace(row, '[0,9,"Go",0,2]'),
    good.replace(row, '[0,1,"Go",0,65536]'), good.replace(row, '[0,1,7,0,2]'), good.replace(row, '[0,1]'),
    good.replace(row, `[0,1,"Go",0,${3 << 10}]`), good.replace(row, '[-2,1,"Go",0,2]'), good.replace(row, '[0.5,1,"Go",0,2]'),
    good.replace(row, '[0,1,"Go",0,2,1]'), good.replace(row, '[0,1,"Go",0,2,null]'), good.replace(row, '[0,1,"Go",0,2,0,0,0,"2"]')]) {
    assert.throws(() => decodeSnapshot(bad), (error) => error.code === 'INVALID_SNAPSHOT', bad);
  }
});

test('refs are steps from the last numbered one, and a tail writes what is missing as 0', () => {
  const wire = JSON.stringify({
    wire: 2, context: { tab: 't', epoch: 1, snapshot: 's1' }, hasMore: false, tag: 'x', strings: ['', 'listitem', 'heading', 'f1'],
    elements: [[2, 1, '', 0, 2, 'Item'], ['own', 2, 'Block', 0, 2, 0, 0, 0, 2], [-2, 2, 'Add', 0, 2, 0, 0, 0, null, 'Block', 0, 3]],
    texts: [],
  });
  const [item, heading, twin] = decodeSnapshot(wire).elements;
  assert.deepEqual([item.ref, item.text, item.href], ['e3-x', 'Item', null]);
  assert.deepEqual([heading.ref, heading.level, heading.value, 'text' in heading], ['own', 2, null, false]);
  assert.deepEqual([twin.ref, twin.within, twin.frame, 'level' in twin, 'valueHash' in twin], ['e2-x', 'Block', 'f1', false, false]);
});

/** In the page: a delta against `base` and the full form, taken in the same task (the page
 * cannot change between), after `change` ran. */
function deltaAndFull({ base, change, options }) {
  return prufe.ready.then(() => {
    new Function(change)();
    const delta = prufe.snapshot({ ...options, wire: true, base });
    const full = prufe.snapshot({ ...options, wire: true });
    return { delta, full };
  });
}

/** `snapshot` with its context's per-call id left out: two calls never share it. */
const sameCall = (s) => ({ ...s, context: { ...s.context, snapshot: '' } });

test('a delta applied to the snapshot held is the full answer, whatever changed', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/shop.html'));
    await page.evaluate(() => prufe.ready.then(() => {
      const list = document.createElement('ul');
      list.id = 'many';
      for (let i = 0; i < 300; i++) {
        const li = document.createElement('li');
        li.innerHTML = `<button>Add item ${i}</button> <a href="#i${i}">Item ${i}</a>`;
        list.append(li);
      }
      document.body.append(list);
      const p = document.createElement('p');
      p.id = 'note';
      p.textContent = 'Nothing yet';
      document.body.append(p);
    }));
    let held = decodeSnapshot(await page.evaluate(() => prufe.snapshot({ wire: true })));
    const steps = [
      ['nothing', ''],
      ['a text', "document.querySelector('#many li:nth-child(5) button').textContent = 'Added';"],
      ['an attribute', "document.querySelector('#many li:nth-child(7) button').setAttribute('aria-pressed', 'true');"],
      ['a paragraph', "document.getElementById('note').textContent = 'Saved';"],
      ['an element added', "const li = document.createElement('li'); li.innerHTML = '<button>New</button>'; document.querySelector('#many li:nth-child(20)').after(li);"],
      ['elements removed', "for (const li of [...document.querySelectorAll('#many li')].slice(40, 45)) li.remove();"],
      ['an element moved', "const many = document.getElementById('many'); many.prepend(many.lastElementChild);"],
      ['elements reordered', "const many = document.getElementById('many'); for (const li of [...many.children].reverse()) many.append(li);"],
      ['a field typed in', "const f = document.getElementById('name'); f.value = 'Ada'; f.dispatchEvent(new Event('input', { bubbles: true }));"],
    ];
    for (const [what, change] of steps) {
      const { delta, full } = await page.evaluate(deltaAndFull, { base: snapshotId(held), change, options: {} });
      assert.ok(JSON.parse(delta).base, `${what}: a delta`);
      // A reversed list is every row again (the longest run kept in order is one element).
      if (what !== 'elements reordered') assert.ok(delta.length * 4 < full.length, `${what}: ${delta.length} bytes against ${full.length}`);
      const applied = decodeSnapshot(delta, held);
      const whole = decodeSnapshot(full);
      assert.deepEqual(sameCall(applied), sameCall(whole), what);
      assert.equal(JSON.stringify(sameCall(applied)), JSON.stringify(sameCall(whole)), `${what}: the same key order`);
      assert.throws(() => decodeSnapshot(delta), (error) => error.code === 'INVALID_SNAPSHOT', `${what}: a delta needs its base`);
      held = applied;
    }
    // Other options: the full form, read with or without the base.
    const other = await page.evaluate((base) => prufe.snapshot({ wire: true, base, ignoreRegions: ['nav'] }), snapshotId(held));
    assert.equal(JSON.parse(other).base, undefined);
    assert.deepEqual(decodeSnapshot(other, held), decodeSnapshot(other));
    // Forgotten after three more answers: the full form.
    const old = snapshotId(held);
    for (let i = 0; i < 3; i++) await page.evaluate(() => prufe.snapshot({ wire: true }));
    assert.equal(JSON.parse(await page.evaluate((base) => prufe.snapshot({ wire: true, base }), old)).base, undefined);
    // A new document's engine holds no base.
    const before = await page.evaluate(() => prufe.snapshot({ wire: true }));
    await page.goto(server.url('/shop.html'));
    const fresh = await page.evaluate((base) => prufe.ready.then(() => prufe.snapshot({ wire: true, base })), snapshotId(decodeSnapshot(before)));
    assert.equal(JSON.parse(fresh).base, undefined);
    assert.ok(decodeSnapshot(fresh).elements.length > 5);
    // `base` belongs to the wire form.
    const error = await page.evaluate(() => { try { prufe.snapshot({ base: 'x' }); return null; } catch (e) { return e.code; } });
    assert.equal(error, 'INVALID_OPTIONS');
  } finally {
    await context.close();
  }
});

test('a delta carries no secret the full answer would not', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url('/shop.html'));
    const options = { sensitive: ['#coupon'] };
    const base = await page.evaluate((o) => prufe.ready.then(() => prufe.snapshot({ ...o, wire: true })), options);
    const held = decodeSnapshot(base);
    await page.fill('#coupon', 'SECRET-4111-1111');
    const { delta, full } = await page.evaluate(deltaAndFull, { base: snapshotId(held), change: '', options });
    assert.ok(JSON.parse(delta).base, 'a delta');
    // The field's row is in it (its value's hash changed), its value is not.
    assert.ok(JSON.parse(delta).elements.some(Array.isArray), delta);
    for (const text of [delta, full, base]) assert.ok(!text.includes('SECRET'), text);
    assert.deepEqual(sameCall(decodeSnapshot(delta, held)), sameCall(decodeSnapshot(full)));
  } finally {
    await context.close();
  }
});

test('a delta that does not fit the snapshot held is INVALID_SNAPSHOT', () => {
  const context = { tab: 't', epoch: 1, snapshot: 's1' };
  const held = decodeSnapshot(JSON.stringify({ wire: 2, context, hasMore: false, tag: 'x', strings: ['', 'button'], elements: [[0, 1, 'Go', 0, 2], [0, 1, 'Stop', 0, 2]], texts: [] }));
  const delta = { wire: 2, base: '1-s1', context: { ...context, snapshot: 's2' }, hasMore: false, tag: 'x', strings: ['', 'button'], elements: [1, -1, [1, 1, 'Halt', 0, 2]], texts: [] };
  const applied = decodeSnapshot(JSON.stringify(delta), held);
  assert.deepEqual(applied.elements.map((e) => [e.ref, e.name]), [['e1-x', 'Go'], ['e2-x', 'Halt']]);
  assert.equal(applied.elements[0], held.elements[0], 'an unchanged element is the object held');
  for (const bad of [{ base: '1-s0' }, { elements: [2, -1] }, { elements: [1] }, { elements: [0, 2] }, { elements: [1.5, -1] }, { elements: ['1', -1] }, { texts: [1] }]) {
    assert.throws(() => decodeSnapshot(JSON.stringify({ ...delta, ...bad }), held), (error) => error.code === 'INVALID_SNAPSHOT', JSON.stringify(bad));
  }
  assert.throws(() => decodeSnapshot(JSON.stringify(delta), null), (error) => error.code === 'INVALID_SNAPSHOT');
});
