// Typed expectations (`expect`) with the npm package and Playwright on /usr/bin/chromium, on
// fixtures/drivers/expect.html: each claim kind held, broken or without evidence, as the
// record's `expect` says, and a malformed claim refused before anything is clicked.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { prufe, PrufeError } from '../../node/src/playwright.js';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile, serve } from './support/env.mjs';

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

const shirt = { role: 'listitem', name: 'Shirt M' };
const wrap = { role: 'checkbox', name: 'Gift wrap' };

/** Each claim's status, in the order given. */
const statuses = (record) => record.expect.map((o) => o.status);

/** The error a step throws, with its record. */
async function failure(step) {
  try {
    await step();
  } catch (error) {
    assert.ok(error instanceof PrufeError, String(error));
    assert.ok(error.record, `${error.code} carries its record`);
    return error;
  }
  assert.fail('the step passed');
}

test('claims held, broken and without evidence, kind by kind', async () => {
  const page = await browser.newPage();
  await page.goto(server.url('/drivers/expect.html'));
  const v = await prufe(page, { maxAttempts: 1 });
  const add = page.getByRole('button', { name: 'Add Shirt M' });

  const held = await v.click(add, {
    expect: [
      { kind: 'appears', target: shirt },
      { kind: 'text', text: 'Added Shirt M' },
      { kind: 'count', target: shirt, n: 1 },
      { kind: 'stays', target: wrap },
    ],
  });
  assert.equal(held.verdict, 'MATCH', held.reason);
  assert.deepEqual(statuses(held.record), ['held', 'held', 'held', 'held']);
  assert.match(held.reason, /expected: appears listitem\[Shirt M\] — held: appeared listitem\[Shirt M\]/);
  assert.match(held.explain(), /^Expected: {2}appears listitem\[Shirt M\] — held: /m);

  // A second shirt: what was claimed did not happen, and nothing can take the line out.
  const second = await failure(() => v.click(add, {
    expect: [
      { kind: 'disappears', target: shirt },
      { kind: 'count', target: shirt, n: 1 },
      { kind: 'stays', target: shirt },
      { kind: 'text', text: 'Ready' },
      { kind: 'changes', target: wrap, field: 'checked' },
      { kind: 'moves', target: { role: 'listitem', name: 'Write tests' } },
      { kind: 'navigates', url: '*page=2' },
      { kind: 'appears', target: { role: 'heading', name: 'Expectations page 2' } },
    ],
  }));
  assert.equal(second.code, 'IRREVERSIBLE_ACTION', second.message);
  assert.equal(second.record.verdict, 'MISMATCH');
  assert.deepEqual(statuses(second.record), ['broken', 'broken', 'broken', 'absent', 'absent', 'absent', 'absent', 'absent']);
  assert.match(second.record.reason, /expected: count listitem\[Shirt M\] is 1 — broken: 2 matches, not 1/);
  assert.match(second.record.reason, /expected: navigates to '\*page=2' — no evidence: no new document loaded/);

  const checked = await v.check(page.getByRole('checkbox', { name: 'Gift wrap' }), {
    expect: [{ kind: 'changes', target: wrap, field: 'checked', from: false, to: true }, { kind: 'count', target: shirt, n: 2 }],
  });
  assert.equal(checked.verdict, 'MATCH', checked.reason);
  assert.deepEqual(statuses(checked.record), ['held', 'held']);

  const unchecked = await failure(() => v.uncheck(page.getByRole('checkbox', { name: 'Gift wrap' }), {
    expect: [{ kind: 'changes', target: wrap, field: 'checked', to: true }],
  }));
  assert.equal(unchecked.code, 'VERIFICATION_FAILED', unchecked.message);
  assert.deepEqual(statuses(unchecked.record), ['broken']);
  assert.match(unchecked.record.reason, /broken: checkbox\[Gift wrap\] in region\[Shop\]: checked true -> false/);
  assert.equal(await page.getByRole('checkbox', { name: 'Gift wrap' }).isChecked(), true, 'the wrong effect is undone');

  const moved = await v.click(page.getByRole('button', { name: 'Move Write tests' }), {
    expect: [{ kind: 'moves', target: { role: 'listitem', name: 'Write tests' }, to: { list: 'done' }, position: 1 }],
  });
  assert.equal(moved.verdict, 'MATCH', moved.reason);
  assert.deepEqual(statuses(moved.record), ['held']);

  const next = page.getByRole('link', { name: 'Next page' });
  const navigated = await v.click(next, {
    expect: [{ kind: 'navigates', url: '*page=2' }, { kind: 'appears', target: { role: 'heading', name: 'Expectations page 2' } }],
  });
  assert.equal(navigated.verdict, 'MATCH', navigated.reason);
  assert.deepEqual(statuses(navigated.record), ['held', 'held']);

  const elsewhere = await failure(() => v.click(next, { expect: [{ kind: 'navigates', url: '*page=3' }] }));
  assert.equal(elsewhere.code, 'VERIFICATION_FAILED', elsewhere.message);
  assert.deepEqual(statuses(elsewhere.record), ['broken']);
  assert.match(elsewhere.record.reason, /which does not match/);
  await page.close();
});

test('a malformed claim is INVALID_EXPECT and nothing is clicked', async () => {
  const page = await browser.newPage();
  await page.goto(server.url('/drivers/expect.html'));
  const v = await prufe(page);
  const add = page.getByRole('button', { name: 'Add Shirt M' });
  for (const expect of [[{ kind: 'vanishes', target: shirt }], [{ kind: 'changes', target: wrap, field: 'checked', to: 'yes' }]]) {
    await assert.rejects(v.click(add, { expect }), (error) => {
      assert.ok(error instanceof PrufeError, String(error));
      assert.equal(error.code, 'INVALID_EXPECT', error.message);
      return true;
    });
  }
  assert.equal(await page.getByRole('listitem').filter({ hasText: 'Shirt M' }).count(), 0, 'nothing was added');
  await page.close();
});
