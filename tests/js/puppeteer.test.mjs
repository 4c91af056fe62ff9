// prufe through Puppeteer (puppeteer-core driving /usr/bin/chromium): `evaluateOnNewDocument`
// before any page script, a page that claims `window.prufe`, and double injection.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import puppeteer from 'puppeteer-core';
import { verifiedClickPuppeteer } from './examples/verified-click.mjs';
import { CHROMIUM, CHROMIUM_FLAGS, JUDGE_MISSING, bundleSource, crateVersion, freshProfile, judgeProbe, serve } from './support/env.mjs';

let browser;
let server;
let profile;

before(async () => {
  server = await serve();
  profile = freshProfile();
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    userDataDir: profile.dir,
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
  await profile?.remove();
});

async function openPage(t) {
  const context = await browser.createBrowserContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  return { page, problems };
}

function readState() {
  return (async () => {
    const descriptor = Object.getOwnPropertyDescriptor(window, 'prufe');
    await prufe.ready;
    return {
      version: prufe.version,
      configurable: descriptor.configurable,
      greet: prufe.snapshot().elements.filter((e) => e.role === 'button' && e.name === 'Greet').length,
    };
  })();
}

describe('Puppeteer evaluateOnNewDocument', () => {
  test('installs window.prufe; ready resolves and version is the crate version', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/drivers/basic.html'));
    assert.deepEqual(await page.evaluate(readState), { version: crateVersion(), configurable: false, greet: 1 });
    assert.deepEqual(problems, []);
  });

  test('survives navigation: every new document gets its own engine with a new epoch', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/drivers/basic.html'));
    const first = await page.evaluate(async () => { await prufe.ready; return prufe.snapshot().context.epoch; });
    await page.goto(server.url('/drivers/spoof-prufe.html'));
    const second = await page.evaluate(async () => { await prufe.ready; return prufe.snapshot().context.epoch; });
    assert.equal(typeof first, 'number');
    assert.notEqual(first, second);
    assert.deepEqual(problems, []);
  });

  test('a page that sets its own window.prufe does not replace the engine', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/drivers/spoof-prufe.html'));
    const result = await page.evaluate(async () => {
      await prufe.ready;
      return { outcome: window.spoofOutcome, version: prufe.version, pay: prufe.snapshot().elements.some((e) => e.name === 'Pay') };
    });
    assert.deepEqual(result, { outcome: 'ignored', version: crateVersion(), pay: true });
    assert.deepEqual(problems, []);
  });

  test('injecting twice is harmless', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/drivers/basic.html'));
    assert.deepEqual(await page.evaluate(readState), { version: crateVersion(), configurable: false, greet: 1 });
    assert.deepEqual(problems, []);
  });
});

describe('Puppeteer verified click with the in-page API', () => {
  test('a recycled row is caught: MISMATCH naming the neighbour that landed in the cart', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/recycled-list.html'));
    if (!(await page.evaluate(judgeProbe))) return t.skip(JUDGE_MISSING);
    const verdict = await verifiedClickPuppeteer(page, { role: 'button', name: 'Add Shirt M' });
    assert.equal(verdict.verdict, 'MISMATCH', verdict.reason);
    assert.match(`${verdict.attributedTo?.name} ${verdict.reason}`, /Trousers L/);
    assert.ok(verdict.diff.lines.some((line) => line.includes('Trousers L')), verdict.diff.lines.join('\n'));
    assert.deepEqual(problems, []);
  });

  test('an honest click is confirmed: MATCH', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/shop.html'));
    if (!(await page.evaluate(judgeProbe))) return t.skip(JUDGE_MISSING);
    const verdict = await verifiedClickPuppeteer(page, { role: 'button', name: 'Add Shirt M' });
    assert.equal(verdict.verdict, 'MATCH', verdict.reason);
    assert.deepEqual(problems, []);
  });
});
