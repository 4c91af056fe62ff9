// Rows of unnamed controls, verified with the prufe package under Playwright on
// /usr/bin/chromium: the to-do lists built like TodoMVC (fixtures/apps/todo-react.html and
// todo-vue.html; `make apps` builds them). A row's checkbox has no name, so a target names the
// row it is in (`in: { role: 'listitem', name: 'Walk dog' }`), and the row's Delete todo
// shows only while the row is hovered. Every honest step is MATCH; every fault is caught.
// Run: `node --test tests/js/rows.test.mjs`.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { PrufeError } from '../../node/src/errors.js';
import { prufe } from '../../node/src/playwright.js';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile, serve } from './support/env.mjs';

const APPS = ['apps/todo-react.html', 'apps/todo-vue.html'];

const row = (title) => ({ role: 'listitem', name: title });
const toggleOf = (title) => ({ role: 'checkbox', name: '', in: row(title) });
const deleteOf = (title) => ({ role: 'button', name: 'Delete todo', in: row(title) });
const NEW_TODO = { role: 'textbox', name: 'What needs to be done?' };

let browser;
let server;
let profile;

before(async () => {
  server = await serve();
  profile = freshProfile();
  browser = await chromium.launchPersistentContext(profile.dir, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
  await profile?.remove();
});

/** A fresh page of `path` with its three todos shown, and a verifier of it. */
async function open(t, path) {
  const page = await browser.newPage();
  t.after(() => page.close());
  await page.goto(server.url(`/${path}`));
  await page.locator('.todo-list > li').nth(2).waitFor();
  return { page, v: await prufe(page) };
}

/**
 * What prufe answered for a step, whether it passed or was refused: the verdict and reason of
 * its record, and the code of the refusal (null when it passed). A refusal before any record
 * (a target prufe does not take) has no verdict, and its message as the reason.
 */
async function answer(step) {
  try {
    const r = await step();
    return { verdict: r.verdict, reason: r.reason, code: null };
  } catch (error) {
    if (!(error instanceof PrufeError)) throw error;
    return { verdict: error.record?.verdict ?? null, reason: error.record?.reason ?? error.message, code: error.code };
  }
}

const said = (a) => `${a.code ?? 'passed'}: ${a.verdict ?? '(no verdict)'} — ${a.reason}`;

/** The step ran and its effect was judged the intended one. */
function isMatch(a) {
  assert.equal(a.verdict, 'MATCH', said(a));
  assert.equal(a.code, null, said(a));
}

/** The step ran, its effect was judged, and it was not taken for the intended one. */
function isCaught(a) {
  assert.ok(a.verdict === 'MISMATCH' || a.verdict === 'AMBIGUOUS', `a verdict other than MATCH, got ${said(a)}`);
  assert.ok(['VERIFICATION_FAILED', 'IRREVERSIBLE_ACTION', 'UNDO_FAILED'].includes(a.code), said(a));
}

/** The rows as `[x] Walk dog`: the checkbox's state, then the row's text. */
const rows = (page) => page.evaluate(() => Array.from(document.querySelectorAll('.todo-list > li'),
  (li) => `${li.querySelector('input.toggle').checked ? '[x]' : '[ ]'} ${li.querySelector('label').textContent}`));

for (const app of APPS) {
  describe(`${app}: honest`, () => {
    for (const intent of [undefined, 'Walk dog is marked as done']) {
      test(`the checkbox of row Walk dog (${intent ? 'with' : 'without'} intent): MATCH`, async (t) => {
        const { page, v } = await open(t, app);
        isMatch(await answer(() => v.click(toggleOf('Walk dog'), { intent })));
        assert.deepEqual(await rows(page), ['[x] Walk dog', '[ ] Pay rent', '[ ] Buy milk']);
      });
    }

    test('a Playwright locator of the unnamed checkbox is a target: MATCH', async (t) => {
      const { page, v } = await open(t, app);
      isMatch(await answer(() => v.click(page.locator('li', { hasText: 'Walk dog' }).locator('input.toggle'))));
      assert.deepEqual(await rows(page), ['[x] Walk dog', '[ ] Pay rent', '[ ] Buy milk']);
    });

    test('Delete todo in row Pay rent, shown only on hover: MATCH', async (t) => {
      const { page, v } = await open(t, app);
      assert.equal(await page.getByRole('button', { name: 'Delete todo' }).count(), 0, 'no row is hovered yet');
      isMatch(await answer(() => v.click(deleteOf('Pay rent'))));
      assert.deepEqual(await rows(page), ['[ ] Walk dog', '[ ] Buy milk']);
    });

    test('toggle all: MATCH', async (t) => {
      const { page, v } = await open(t, app);
      isMatch(await answer(() => v.click({ role: 'checkbox', name: 'Mark all as complete' })));
      assert.deepEqual(await rows(page), ['[x] Walk dog', '[x] Pay rent', '[x] Buy milk']);
    });

    test('Clear completed after one is checked: MATCH', async (t) => {
      const { page, v } = await open(t, app);
      await page.locator('li', { hasText: 'Walk dog' }).locator('input.toggle').check();
      await page.getByRole('button', { name: 'Clear completed' }).waitFor();
      isMatch(await answer(() => v.click({ role: 'button', name: 'Clear completed' })));
      assert.deepEqual(await rows(page), ['[ ] Pay rent', '[ ] Buy milk']);
    });

    // Walk dog is done first, so each filter changes the rows it shows; All is clicked from Active.
    for (const [name, from, hash, shown] of [
      ['Active', null, '#/active', ['[ ] Pay rent', '[ ] Buy milk']],
      ['Completed', null, '#/completed', ['[x] Walk dog']],
      ['All', 'Active', '#/', ['[x] Walk dog', '[ ] Pay rent', '[ ] Buy milk']],
    ]) {
      test(`the filter ${name}${from ? ` (from ${from})` : ''}: MATCH`, async (t) => {
        const { page, v } = await open(t, app);
        await page.locator('li', { hasText: 'Walk dog' }).locator('input.toggle').check();
        if (from) {
          await page.getByRole('link', { name: from }).click();
          await page.waitForFunction((f) => document.querySelector('.filters a.selected')?.textContent === f, from);
        }
        isMatch(await answer(() => v.click({ role: 'link', name })));
        assert.equal(new URL(page.url()).hash, hash);
        assert.deepEqual(await rows(page), shown);
      });
    }

    test('a todo added by typing and Enter: MATCH', async (t) => {
      const { page, v } = await open(t, app);
      isMatch(await answer(() => v.fill(NEW_TODO, 'Water plants')));
      isMatch(await answer(() => v.press(NEW_TODO, 'Enter')));
      assert.deepEqual(await rows(page), ['[ ] Walk dog', '[ ] Pay rent', '[ ] Buy milk', '[ ] Water plants']);
    });
  });

  describe(`${app}: faults`, () => {
    for (const intent of [undefined, 'Walk dog is marked as done']) {
      test(`forward: the checkbox of row Walk dog checks Pay rent (${intent ? 'with' : 'without'} intent): MISMATCH naming Pay rent`, async (t) => {
        const { v } = await open(t, `${app}?fault=forward`);
        const a = await answer(() => v.click(toggleOf('Walk dog'), { intent }));
        isCaught(a);
        assert.equal(a.verdict, 'MISMATCH', said(a));
        assert.match(a.reason, /checkbox/, said(a));
        assert.match(a.reason, /Pay rent/, said(a));
      });
    }

    for (const intent of [undefined, 'Walk dog is marked as done']) {
      test(`swallow: nothing toggles, only the hover shows Delete todo (${intent ? 'with' : 'without'} intent): not MATCH`, async (t) => {
        const { page, v } = await open(t, `${app}?fault=swallow`);
        isCaught(await answer(() => v.click(toggleOf('Walk dog'), { intent })));
        assert.deepEqual(await rows(page), ['[ ] Walk dog', '[ ] Pay rent', '[ ] Buy milk']);
      });
    }

    test('double-delete: Delete todo in row Walk dog removes Pay rent too: not MATCH', async (t) => {
      const { v } = await open(t, `${app}?fault=double-delete`);
      isCaught(await answer(() => v.click(deleteOf('Walk dog'))));
    });
  });
}
