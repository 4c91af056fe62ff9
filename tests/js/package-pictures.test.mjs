// The npm package's pictures (`screenshots` next to `traceDir`) with Playwright on
// /usr/bin/chromium: on fixtures/trace-pictures.html a password fill and a click that lands on
// a recycled row (MISMATCH) leave a before and an after JPEG beside each record with the
// boxes the viewer outlines; the secret is in no file of the trace; a bad value is refused
// before anything runs.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { prufe, PrufeError, VerificationFailed } from '../../node/src/playwright.js';
import { jpegSize } from '../../node/src/pictures.js';
import { CHROMIUM, CHROMIUM_FLAGS, serve } from './support/env.mjs';

const SECRET = 'hunter2-Secret!';
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

/** @param {string} dir */
function records(dir) {
  return readdirSync(dir).filter((n) => n.endsWith('.json')).sort()
    .map((n) => [n, JSON.parse(readFileSync(join(dir, n), 'utf8'))]);
}

test("screenshots: 'all' keeps covered pictures of every step and the secret in no file", async () => {
  const page = await browser.newPage();
  await page.goto(server.url('/trace-pictures.html'));
  const dir = join(mkdtempSync(join(tmpdir(), 'prufe-node-pictures-')), 'run');
  const v = await prufe(page, { traceDir: dir, screenshots: 'all' });
  await v.fill(page.getByLabel('Password'), SECRET);
  await assert.rejects(v.click(page.getByRole('button', { name: 'Add Shirt M' })), VerificationFailed);
  await page.close();

  const recs = records(dir);
  assert.deepEqual(recs.map(([n]) => n), ['0001-fill-match.json', '0002-click-mismatch.json']);
  for (const [name, r] of recs) {
    for (const which of ['before', 'after']) {
      const p = r.pictures?.[which];
      assert.ok(p, `${name}: a ${which} picture`);
      assert.equal(p.file, name.replace('.json', `.${which}.jpg`));
      const size = jpegSize(readFileSync(join(dir, p.file)));
      assert.deepEqual(size, { width: p.width, height: p.height });
      assert.ok(p.width <= 800, `${p.width} px wide`);
      assert.ok(p.target && p.target.width > 0, `${name} ${which}: the target's box`);
      assert.ok(p.masked.length >= 2, `${name} ${which}: the password and the card are covered`);
    }
  }
  assert.ok(recs[1][1].pictures.after.effect.length >= 1, 'the wrong effect is outlined');
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, name));
    for (const form of [SECRET, SECRET.toLowerCase(), encodeURIComponent(SECRET)]) {
      assert.equal(bytes.indexOf(Buffer.from(form)), -1, `${name} holds the secret`);
    }
  }
});

test("screenshots: 'failures' by default; a bad value is INVALID_OPTIONS and writes nothing", async () => {
  const page = await browser.newPage();
  await page.goto(server.url('/trace-pictures.html'));
  const root = mkdtempSync(join(tmpdir(), 'prufe-node-pictures-'));
  await assert.rejects(prufe(page, { traceDir: join(root, 'bad'), screenshots: 'sometimes' }), (error) => {
    assert.ok(error instanceof PrufeError);
    assert.equal(error.code, 'INVALID_OPTIONS');
    assert.match(error.message, /'off', 'failures' or 'all'/);
    return true;
  });
  assert.ok(!existsSync(join(root, 'bad')));
  const dir = join(root, 'run');
  const v = await prufe(page, { traceDir: dir });
  await v.fill(page.getByLabel('Password'), SECRET);
  await assert.rejects(v.click(page.getByRole('button', { name: 'Add Shirt M' })), VerificationFailed);
  await page.close();
  const recs = records(dir);
  assert.equal(recs[0][1].pictures, undefined, 'a passed step keeps none');
  assert.ok(recs[1][1].pictures.before && recs[1][1].pictures.after);
  assert.equal(readdirSync(dir).filter((n) => n.endsWith('.jpg')).length, 2);
});
