// The fingerprint's claims: a Tab, a reorder within a list and a selection move the
// fingerprint while the part the diff decides (before the `~`) stays; a settled page keeps
// it, read from the cache; a background that says the page moves its claims by itself leaves
// them out; and on a page of more than one tree a patched fingerprint's order is the full
// walk's.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enginePage } from './support/engine-page.mjs';

const FORM = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Claims</title></head>
<body><main>
<label>First name <input id="first" value="Ada"></label>
<label>Last name <input id="last" value="Lovelace"></label>
<ul id="tasks"><li>Task A</li><li>Task B</li><li>Task C</li></ul>
<p id="note">Notes on the analytical engine</p>
<div id="host"></div>
</main></body></html>`;

const open = enginePage('/claims.html', FORM);

const diffed = (fp) => fp.replace(/~[0-9a-f]{16}/g, '');
const fingerprint = (page, options) => page.evaluate((o) => prufe.fingerprint(o), options);

test('a settled page keeps its fingerprint; Tab, a reorder and a selection move only its claims', async (t) => {
  const page = await open(t);
  await page.focus('#first');
  const settled = await fingerprint(page);
  assert.match(settled, /^[0-9a-f]{16}-[0-9a-f]+~[0-9a-f]{16}$/);
  assert.equal(await fingerprint(page), settled, 'a settled page');

  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'last');
  const tabbed = await fingerprint(page);
  assert.notEqual(tabbed, settled, 'the focus moved');
  assert.equal(diffed(tabbed), diffed(settled), 'the diff sees no change');
  assert.equal(await fingerprint(page), tabbed);

  await page.evaluate(() => document.getElementById('last').setSelectionRange(0, 4));
  const selected = await fingerprint(page);
  assert.notEqual(selected, tabbed, 'the field\'s selection moved');
  assert.equal(diffed(selected), diffed(settled));

  await page.evaluate(() => {
    const list = document.getElementById('tasks');
    list.prepend(list.lastElementChild);
  });
  const reordered = await fingerprint(page);
  assert.notEqual(reordered, selected, 'Task C moved to the top');
  assert.equal(diffed(reordered), diffed(settled));
  assert.equal(await fingerprint(page), reordered);

  await page.evaluate(() => {
    document.activeElement.blur();
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('note'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  });
  const blurred = await fingerprint(page);
  await page.evaluate(() => getSelection().removeAllRanges());
  const unselected = await fingerprint(page);
  assert.notEqual(blurred, unselected, 'a range selected in the text');
  assert.equal(diffed(blurred), diffed(unselected));

  // A caret a click leaves in plain text shows nothing: no claim.
  await page.evaluate(() => getSelection().collapse(document.getElementById('note').firstChild, 3));
  assert.equal(await fingerprint(page), unselected);

  // A page that moves its claims by itself: the background leaves them out.
  const without = await fingerprint(page, { background: { claims: true } });
  assert.equal(without, diffed(unselected));
  await page.keyboard.press('Tab');
  assert.equal(await fingerprint(page, { background: { claims: true } }), without);
});

test('on a page of more than one tree, a reorder is hashed in the full walk\'s order', async (t) => {
  const page = await open(t);
  await page.evaluate(() => {
    const root = document.getElementById('host').attachShadow({ mode: 'open' });
    root.innerHTML = '<button type="button">Inside</button>';
  });
  const full = { sensitive: ['#never-matches'] };
  const first = await fingerprint(page);
  assert.equal(first, await fingerprint(page, full));
  await page.evaluate(() => {
    const list = document.getElementById('tasks');
    list.insertBefore(list.lastElementChild, list.children[1]);
  });
  const patched = await fingerprint(page);
  assert.notEqual(patched, first);
  assert.equal(patched, await fingerprint(page, full), 'the cached and the full walk agree');
  assert.equal(diffed(patched), diffed(first));
});
