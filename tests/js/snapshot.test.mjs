// What a snapshot of a changing page costs and gives: after list items come and go on a page
// of many sibling sections, the snapshot is still the full walk's, in document order, and is
// answered without comparing document positions (a patch puts what it adds in place); the
// object `snapshot()` returns is exactly its wire form decoded, even where the page put
// setters on the prototypes; and the mutation log never reads a re-rendered container's whole
// text.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeSnapshot } from '../../js/wire.mjs';
import { enginePage } from './support/engine-page.mjs';

/** `blocks` named sections side by side in `main`, each a heading, a list, two buttons, a
 * link and a labelled input (the shape of the bench's pages). */
function sections(blocks) {
  const parts = [];
  for (let i = 0; i < blocks; i++) {
    parts.push(`<section aria-label="Block ${i}"><h2>Block ${i}</h2>
<ul id="list-${i}"><li>Item ${i}.1</li><li>Item ${i}.2</li></ul>
<button type="button">Add ${i}</button> <button type="button" aria-pressed="false">Star ${i}</button>
<a href="#item-${i}">Details ${i}</a> <label>Quantity ${i} <input type="number" value="${i % 7}"></label></section>`);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sections</title></head>
<body><header><h1>Sections</h1></header><main>${parts.join('\n')}</main><footer><p>End</p></footer></body></html>`;
}

const open = enginePage('/sections.html', sections(120));

test('after items come and go, a snapshot is the full walk\'s and compares no document positions', async (t) => {
  const page = await open(t);
  const steps = await page.evaluate(() => {
    const FULL = { maxElements: 100000, budgetMs: 600000 };
    // A declared sensitive selector turns the cache off: the page is walked in full.
    const WALKED = { ...FULL, sensitive: ['#never-matches'] };
    const compare = Node.prototype.compareDocumentPosition;
    let comparisons = 0;
    Node.prototype.compareDocumentPosition = function (other) {
      comparisons++;
      return compare.call(this, other);
    };
    const item = (text) => Object.assign(document.createElement('li'), { textContent: text });
    // Each change, and whether it adds anything to place.
    const changes = [
      [() => document.getElementById('list-0').append(item('First added')), true],
      [() => document.getElementById('list-60').prepend(item('Middle added')), true],
      [() => document.getElementById('list-119').append(item('Last added')), true],
      [() => document.querySelector('#list-60 li:last-child').remove(), false],
      [() => document.querySelector('main').prepend(Object.assign(document.createElement('p'), { textContent: 'Top note' })), true],
      [() => document.getElementById('list-0').firstElementChild.remove(), false],
    ];
    const strip = (s) => JSON.stringify({ ...s, context: { ...s.context, snapshot: '' } });
    prufe.snapshot(FULL);
    prufe.snapshot(FULL);
    const out = [];
    for (const [change, adds] of changes) {
      change();
      comparisons = 0;
      prufe.fingerprint(FULL);
      const patching = comparisons;
      comparisons = 0;
      const replayed = prufe.snapshot(FULL);
      const replaying = comparisons;
      const again = prufe.snapshot(FULL);
      const walked = prufe.snapshot(WALKED);
      out.push({
        adds,
        patching,
        replaying: replaying + comparisons,
        same: strip(replayed) === strip(walked),
        sameAgain: strip(again) === strip(walked),
        rows: replayed.elements.filter((e) => e.role === 'listitem' && /added/.test(e.text ?? '')).map((e) => e.text),
        texts: replayed.texts.map((t) => t.text).slice(0, 2),
      });
    }
    Node.prototype.compareDocumentPosition = compare;
    return out;
  });
  for (const [i, s] of steps.entries()) {
    assert.ok(s.same, `change ${i}: the replayed snapshot differs from the full walk`);
    assert.ok(s.sameAgain, `change ${i}: the next snapshot differs from the full walk`);
    if (s.adds) assert.ok(s.patching > 0, `change ${i}: the fingerprint walked again instead of patching`);
    // A binary search per added entry among ~1,200 captured ones.
    assert.ok(s.patching <= 80, `change ${i}: the patch compared ${s.patching} positions`);
    assert.equal(s.replaying, 0, `change ${i}: snapshots compared ${s.replaying} positions`);
  }
  assert.deepEqual(steps[2].rows, ['First added', 'Middle added', 'Last added']);
  assert.deepEqual(steps[4].texts, ['Top note', 'End']);
});

test('the snapshot object is its wire form decoded, whatever setters the page put on prototypes', async (t) => {
  const page = await open(t);
  const { object, wire, caught } = await page.evaluate(() => {
    let caught = '';
    const hooks = [[Object.prototype, 'ref'], [Object.prototype, 'visible'], [Object.prototype, 'level'],
      [Object.prototype, 'elements'], [Array.prototype, '0'], [Array.prototype, '5']];
    for (const [proto, key] of hooks) {
      Object.defineProperty(proto, key, {
        configurable: true,
        get() { return 'from the page'; },
        set(value) { caught += `${key}=${String(value).slice(0, 20)} `; },
      });
    }
    const FULL = { maxElements: 100000, budgetMs: 600000 };
    const object = prufe.snapshot(FULL);
    const wire = prufe.snapshot({ ...FULL, wire: true });
    for (const [proto, key] of hooks) delete proto[key];
    const own = object.elements.every((e) => Object.hasOwn(e, 'ref') && Object.hasOwn(e, 'visible'));
    return { object: own ? JSON.stringify(object) : 'an element without its own ref or visible', wire, caught };
  });
  assert.equal(caught, '');
  const decoded = decodeSnapshot(wire);
  const parsed = JSON.parse(object);
  assert.equal(JSON.stringify(parsed.elements), JSON.stringify(decoded.elements));
  assert.equal(JSON.stringify(parsed.texts), JSON.stringify(decoded.texts));
  assert.ok(parsed.elements.some((e) => e.level === 2), 'no heading level kept');
  assert.ok(parsed.elements.length > 1000, `only ${parsed.elements.length} elements`);
});

test('the mutation log reads a re-rendered container\'s text only so far', async (t) => {
  const page = await open(t);
  const { reads, quiet } = await page.evaluate(async () => {
    prufe.fingerprint();
    const property = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent');
    let reads = 0;
    Object.defineProperty(Node.prototype, 'textContent', {
      ...property,
      get() {
        reads++;
        return property.get.call(this);
      },
    });
    // A keyed list moved row by row: records on the container between records on each row.
    const main = document.querySelector('main');
    for (const s of [...main.children].reverse()) {
      main.append(s);
      s.setAttribute('data-moved', '1');
    }
    await Promise.resolve();
    Object.defineProperty(Node.prototype, 'textContent', property);
    return { reads, quiet: prufe.quietFor() };
  });
  assert.equal(reads, 0, `the whole text of a container was read ${reads} times`);
  assert.ok(quiet < 1000, `the page was quiet for ${quiet} ms right after it changed`);
});
