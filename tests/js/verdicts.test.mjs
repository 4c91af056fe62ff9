// Held-out judge cases (fixtures/verdicts/): widgets whose honest effect a verifier must not
// refuse, and one Cancel it must not take for a deletion. Each case is one verified step with
// the prufe package under Playwright on /usr/bin/chromium, and the verdict it must get.
// Run: `node --test tests/js/verdicts.test.mjs`.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { PrufeError } from '../../node/src/errors.js';
import { prufe } from '../../node/src/playwright.js';
import { CHROMIUM, CHROMIUM_FLAGS, FIXTURES, freshProfile, serve } from './support/env.mjs';

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

/** A fresh page of fixtures/verdicts/`name`, and a verifier of it. */
async function open(t, name) {
  const page = await browser.newPage();
  t.after(() => page.close());
  await page.goto(server.url(`/verdicts/${name}`));
  return { page, v: await prufe(page) };
}

/**
 * What prufe answered for a step, whether it passed or was refused: the verdict and reason of
 * its record and the refusal's code (null when it passed); a refusal before any record has no
 * verdict, and its message as the reason.
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

/** The step got `verdict`; a MATCH also passed (no refusal). */
function got(a, verdict) {
  const said = `${a.code ?? 'passed'}: ${a.verdict ?? '(no verdict)'} — ${a.reason}`;
  assert.equal(a.verdict, verdict, said);
  if (verdict === 'MATCH') assert.equal(a.code, null, said);
}

describe('1. a dialog whose Cancel keeps the account', () => {
  const opened = async (t) => {
    const o = await open(t, '01-dialog-cancel.html');
    await o.page.getByRole('button', { name: 'Delete account' }).click();
    await o.page.getByRole('dialog', { name: 'Delete account?' }).waitFor();
    return o;
  };

  test('Cancel with the intent "the account is deleted": MISMATCH', async (t) => {
    const { page, v } = await opened(t);
    got(await answer(() => v.click({ role: 'button', name: 'Cancel' }, { intent: 'the account is deleted' })), 'MISMATCH');
    assert.equal(await page.locator('#status').innerText(), 'Status: active');
  });

  test('Cancel with the intent "the dialog closes": MATCH', async (t) => {
    const { page, v } = await opened(t);
    got(await answer(() => v.click({ role: 'button', name: 'Cancel' }, { intent: 'the dialog closes' })), 'MATCH');
    assert.equal(await page.getByRole('dialog').count(), 0);
  });

  test('Delete with the intent "the account is deleted": MATCH', async (t) => {
    const { page, v } = await opened(t);
    got(await answer(() => v.click({ role: 'button', name: 'Delete' }, { intent: 'the account is deleted' })), 'MATCH');
    assert.equal(await page.locator('#status').innerText(), 'Status: deleted');
  });
});

test('2. the switch Dark mode turned on, intent "dark mode is turned on": MATCH', async (t) => {
  const { page, v } = await open(t, '02-switch.html');
  got(await answer(() => v.click({ role: 'switch', name: 'Dark mode' }, { intent: 'dark mode is turned on' })), 'MATCH');
  assert.equal(await page.getByRole('switch', { name: 'Dark mode' }).getAttribute('aria-checked'), 'true');
});

test('3. Enter in the search box after "mug", intent "search results for mug are shown": MATCH', async (t) => {
  const { page, v } = await open(t, '03-search-enter.html');
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await box.fill('mug');
  got(await answer(() => v.press(box, 'Enter', { intent: 'search results for mug are shown' })), 'MATCH');
  assert.equal(await page.locator('#count').innerText(), '2 results for “mug”');
});

test('4. Write invoice dragged from To do to Done (HTML5 drag and drop), intent "Write invoice moves to Done": MATCH', async (t) => {
  const { page, v } = await open(t, '04-drag-lists.html');
  const item = page.getByRole('listitem').filter({ hasText: 'Write invoice' });
  const done = page.getByRole('list', { name: 'Done' });
  got(await answer(() => v.dragTo(item, done, { intent: 'Write invoice moves to Done' })), 'MATCH');
  assert.deepEqual(await done.getByRole('listitem').allInnerTexts(), ['Pay rent', 'Write invoice']);
});

describe('5. the accordion Shipping details expanded', () => {
  for (const intent of [undefined, 'shipping details are shown']) {
    test(`${intent ? 'with the intent' : 'without an intent'}: MATCH`, async (t) => {
      const { page, v } = await open(t, '05-accordion.html');
      got(await answer(() => v.click({ role: 'button', name: 'Shipping details' }, { intent })), 'MATCH');
      assert.equal(await page.getByRole('region', { name: 'Shipping details' }).innerText(), 'Orders ship within 2 working days.');
    });
  }
});

test('6. Add Shirt M, intent in German "Der Warenkorb enthält jetzt ein Hemd in Größe M": MATCH', async (t) => {
  const { page, v } = await open(t, '06-shop-german-intent.html');
  got(await answer(() => v.click({ role: 'button', name: 'Add Shirt M' }, { intent: 'Der Warenkorb enthält jetzt ein Hemd in Größe M' })), 'MATCH');
  assert.deepEqual(await page.locator('#cart-items > li > span').allInnerTexts(), ['Shirt M']);
});

test('7. a file chosen for Receipt, shown only in the input itself: MATCH', async (t) => {
  const { page, v } = await open(t, '07-file-name-only.html');
  got(await answer(() => v.setInputFiles(page.getByLabel('Receipt'), join(FIXTURES, 'verdicts', 'receipt.txt'))), 'MATCH');
  assert.equal(await page.getByLabel('Receipt').evaluate((input) => input.files[0]?.name), 'receipt.txt');
});

test('8. Tab #1 clicked while Tab #2 is selected, intent "Tab #1 is selected": MATCH', async (t) => {
  const { page, v } = await open(t, '08-tabs.html');
  got(await answer(() => v.click({ role: 'tab', name: 'Tab #1' }, { intent: 'Tab #1 is selected' })), 'MATCH');
  assert.equal(await page.getByRole('tab', { name: 'Tab #1' }).getAttribute('aria-selected'), 'true');
});

test('9. Start, whose first click also starts a ticking countdown, shows Started: MATCH', async (t) => {
  const { page, v } = await open(t, '09-countdown.html');
  got(await answer(() => v.click({ role: 'button', name: 'Start' })), 'MATCH');
  assert.equal(await page.getByRole('status').innerText(), 'Started');
});

test('10. a dialog closed by its own × (Close), beside OK: MATCH', async (t) => {
  const { page, v } = await open(t, '10-dialog-close.html');
  got(await answer(() => v.click({ role: 'button', name: 'Close' })), 'MATCH');
  assert.equal(await page.getByRole('dialog').count(), 0);
});

test('11. a role-less span that looks like a link shows "Details shown": MATCH', async (t) => {
  const { page, v } = await open(t, '11-span-link.html');
  got(await answer(() => v.click(page.getByText('More details', { exact: true }))), 'MATCH');
  assert.equal(await page.getByText('Details shown').isVisible(), true);
});

test('12. Olwen dragged by pointer from place 4 onto Carys, intent "Olwen moves up one place": MATCH', async (t) => {
  const { page, v } = await open(t, '12-sortable-pointer.html');
  const speaker = (name) => page.getByRole('listitem').filter({ hasText: name });
  got(await answer(() => v.dragTo(speaker('Olwen'), speaker('Carys'), { intent: 'Olwen moves up one place' })), 'MATCH');
  assert.deepEqual(await page.getByRole('listitem').allInnerTexts(), ['Aled', 'Bryn', 'Olwen', 'Carys', 'Rhys']);
});
