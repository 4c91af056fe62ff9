// prufe through Puppeteer (puppeteer-core driving /usr/bin/chromium): `evaluateOnNewDocument`
// before any page script, a page that claims `window.prufe`, double injection, and the
// driver of the machine (node/src/driver.js) through its Puppeteer port.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import puppeteer from 'puppeteer-core';
import { puppeteerPort, verify } from '../../node/src/driver.js';
import { CHROMIUM, CHROMIUM_FLAGS, bundleSource, crateVersion, freshProfile, serve } from './support/env.mjs';

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

const ADD_SHIRT = {
  action: { kind: 'click', target: { role: 'button', name: 'Add Shirt M' } },
  intent: 'add Shirt M to the cart',
};

describe('Puppeteer verified click through the machine', () => {
  test('a recycled row is caught: MISMATCH naming the neighbour, undone, the cart empty', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/recycled-list.html'));
    const { record } = await verify(puppeteerPort(page), ADD_SHIRT);
    assert.equal(record.verdict, 'MISMATCH', record.reason);
    assert.equal(record.error?.code, 'VERIFICATION_FAILED');
    assert.match(`${record.attributedTo} ${record.reason}`, /Trousers L/);
    assert.ok(record.lines.some((line) => line.includes('Trousers L')), record.lines.join('\n'));
    assert.ok(record.undone >= 1);
    assert.equal(await page.evaluate(() => document.querySelectorAll('#cart-items li').length), 0);
    assert.deepEqual(problems, []);
  });

  test('an honest click is confirmed: MATCH', async (t) => {
    const { page, problems } = await openPage(t);
    await page.evaluateOnNewDocument(bundleSource());
    await page.goto(server.url('/shop.html'));
    const { record } = await verify(puppeteerPort(page), ADD_SHIRT);
    assert.equal(record.verdict, 'MATCH', record.reason);
    assert.equal(record.attempts, 1);
    assert.deepEqual(problems, []);
  });
});
