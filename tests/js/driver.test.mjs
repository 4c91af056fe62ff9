// The Node driver of the machine (node/src/driver.js) with Playwright on
// /usr/bin/chromium: a click on the recycling list is caught, undone and stopped, an honest
// click passes, and both records agree with the `prufe` command's in every decided field.
// The machine module also runs inside a page, evaluated as a classic script.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { playwrightPort, verify } from '../../node/src/driver.js';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, MACHINE_SCRIPT, built, freshProfile, serve } from './support/env.mjs';

const ADD_SHIRT = {
  action: { kind: 'click', target: { role: 'button', name: 'Add Shirt M' } },
  intent: 'add Shirt M to the cart',
};

// What `prufe run --json --script FILE URL` decided for ADD_SHIRT on each page (its `diff`
// is the record's `lines`; `target` from the same run's --trace-dir record), captured with
// the harness of main 3bfc82a. Set PRUFE_CLI to a `prufe` binary to compare with a live run.
const CLI = {
  '/recycled-list.html': {
    verdict: 'MISMATCH',
    reason: 'the effect belongs to button[Add Trousers L] in list, not to the target: appeared listitem[Trousers L Remove Trousers L] in cart/list:cart-items',
    target: 'button[Add Shirt M] in list',
    attempts: 2,
    undone: 2,
    error: 'VERIFICATION_FAILED',
    lines: [
      'appeared listitem[Trousers L Remove Trousers L] in cart/list:cart-items',
      'appeared button[Remove Trousers L] in cart/list:cart-items',
      "appeared text 'Added Trousers L' in main",
      "appeared text 'Total: 39.90 €' in cart",
      "disappeared text 'Removed Trousers L' in main",
      "disappeared text 'Total: 0.00 €' in cart",
    ],
  },
  '/shop.html': {
    verdict: 'MATCH',
    reason: "the effect carries the target's name: appeared listitem[Shirt M Remove Shirt M] in cart/list:cart-items, and the intent holds",
    target: 'button[Add Shirt M] in main/list:catalogue',
    attempts: 1,
    undone: 0,
    error: null,
    lines: [
      'appeared listitem[Shirt M Remove Shirt M] in cart/list:cart-items',
      'appeared button[Remove Shirt M] in cart/list:cart-items',
      "appeared text 'Added Shirt M' in main",
      "appeared text 'Total: 19.90 €' in cart",
      "disappeared text 'Total: 0.00 €' in cart",
    ],
  },
};

/** The fields the machine decides, as the CLI's --json line names them. */
function decided(record) {
  const { verdict, reason, target, attempts, undone, lines } = record;
  return { verdict, reason, target, attempts, undone, error: record.error?.code ?? null, lines };
}

let browser;
let server;
let profile;

before(async () => {
  server = await serve();
  profile = freshProfile();
  // A persistent context is the way to a profile directory of our own with Playwright.
  browser = await chromium.launchPersistentContext(profile.dir, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
  await profile?.remove();
});

/** A new page with the bundle injected before any page script; page errors are collected. */
async function openPage(t, path) {
  const page = await browser.newPage();
  t.after(() => page.close());
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  await page.addInitScript({ path: BUNDLE });
  await page.goto(server.url(path));
  return { page, problems };
}

/** The CLI's line for ADD_SHIRT on `path`, when PRUFE_CLI names a binary. */
async function liveCli(path) {
  const dir = mkdtempSync(join(tmpdir(), 'prufe-cli-'));
  try {
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify([{ action: 'click', target: ADD_SHIRT.action.target, intent: ADD_SHIRT.intent }]));
    // Asynchronously: the fixture server runs in this process. Exit code 1 is a failed step.
    const run = await promisify(execFile)(process.env.PRUFE_CLI, ['run', '--json', '--script', script, server.url(path)], { timeout: 120_000 })
      .catch((error) => error);
    const line = JSON.parse(run.stdout.trim().split('\n').pop());
    return { verdict: line.verdict, reason: line.reason, attempts: line.attempts, undone: line.undone, error: line.error, lines: line.diff };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the driver over the machine, with Playwright', () => {
  test('a recycled row is caught: MISMATCH, undone, stopped with VERIFICATION_FAILED, the cart empty', async (t) => {
    const { page, problems } = await openPage(t, '/recycled-list.html');
    const needs = [];
    const { record, seen } = await verify(playwrightPort(page), ADD_SHIRT, { trace: (need) => needs.push(need.need) });
    assert.equal(record.verdict, 'MISMATCH', record.reason);
    assert.equal(record.ok, false);
    assert.equal(record.error?.code, 'VERIFICATION_FAILED', record.error?.message);
    assert.ok(record.undone >= 1);
    assert.match(record.attributedTo ?? '', /Trousers L/);
    assert.ok(record.lines.some((line) => line.includes('Trousers L')), record.lines.join('\n'));
    assert.ok(!record.lines.some((line) => line.startsWith('appeared') && line.includes('Shirt M')));
    const cart = await page.evaluate(() => document.querySelectorAll('#cart-items li').length);
    assert.equal(cart, 0, 'every wrong effect was undone');
    assert.equal(seen, null, 'after an undo nothing is known about the page');
    assert.deepEqual(decided(record), CLI['/recycled-list.html']);
    // Every kind of need the loop has, bar the ones a click on this page never asks.
    assert.deepEqual([...new Set(needs)].sort(), ['describe', 'fingerprint', 'input', 'observe', 'prepare', 'read', 'settle']);
    assert.ok(record.durationMs > 0 && record.startedAt);
    assert.deepEqual(problems, []);
  });

  test('an honest click is confirmed: MATCH on the first attempt, the same record as the CLI\'s', async (t) => {
    const { page, problems } = await openPage(t, '/shop.html');
    const { record, seen } = await verify(playwrightPort(page), ADD_SHIRT);
    assert.equal(record.verdict, 'MATCH', record.reason);
    assert.equal(record.ok, true);
    assert.equal(record.error, null);
    assert.deepEqual(decided(record), CLI['/shop.html']);
    assert.equal(await page.evaluate(() => document.querySelectorAll('#cart-items li').length), 1);
    // The next step starts from this observation.
    assert.equal(typeof seen?.fingerprint, 'string');
    assert.equal(seen.fingerprint, await page.evaluate(() => prufe.fingerprint()));
    assert.deepEqual(problems, []);
  });

  test('after its first observation of a root the driver asks for deltas, and reaches the same record', async (t) => {
    const { page, problems } = await openPage(t, '/shop.html');
    const asked = [];
    const plain = playwrightPort(page);
    const port = { ...plain, evaluate: (fn, arg) => {
      if (arg?.name === 'snapshot') asked.push(arg.args[0]);
      return plain.evaluate(fn, arg);
    } };
    const observed = [];
    const trace = (need, answer) => { if (answer.answer === 'observed') observed.push(answer.snapshot); };
    const first = await verify(port, ADD_SHIRT, { trace });
    assert.deepEqual(decided(first.record), CLI['/shop.html']);
    const second = await verify(port, ADD_SHIRT, { seen: first.seen, trace });
    assert.equal(second.record.verdict, 'MATCH', second.record.reason);
    assert.ok(asked.length >= 4, JSON.stringify(asked));
    assert.equal(asked[0].base, undefined);
    assert.ok(asked.slice(1).every((o) => typeof o.base === 'string'), JSON.stringify(asked));
    // Each observation is what the page shows: the last one is a full snapshot taken now.
    const now = await page.evaluate(() => prufe.snapshot());
    const last = observed.at(-1);
    assert.deepEqual(last.elements, now.elements);
    assert.deepEqual(last.texts, now.texts);
    assert.deepEqual(problems, []);
  });

  test('the same records as a live run of the CLI', { skip: !process.env.PRUFE_CLI && 'set PRUFE_CLI to a prufe binary' }, async (t) => {
    for (const path of Object.keys(CLI)) {
      const { page } = await openPage(t, path);
      const { record } = await verify(playwrightPort(page), ADD_SHIRT);
      const { target, ...fields } = decided(record);
      assert.deepEqual(fields, await liveCli(path), path);
      assert.equal(target, CLI[path].target);
    }
  });
});

describe('the machine in a page', () => {
  test('evaluated as a classic script, prufeRun answers there as in Node', async (t) => {
    const { page, problems } = await openPage(t, '/shop.html');
    await page.evaluate((source) => { (0, eval)(source); }, built(MACHINE_SCRIPT));
    const need = await page.evaluate(async (step) => {
      await prufeRun.ready;
      const { run } = prufeRun.start(step);
      return prufeRun.next(run, { answer: 'fingerprint', fingerprint: prufe.fingerprint() }).need;
    }, ADD_SHIRT);
    assert.equal(need.need, 'settle');
    assert.equal(need.stopOnChange, true);
    assert.deepEqual(problems, []);
  });
});
