// One page served and a browser for a test file of the engine: `enginePage(path, html)`
// registers the file's `before` and `after` (the server and Chromium start once, close after),
// and returns `open(t)`, a fresh context on that page with the bundle injected and ready,
// closed when the test ends.

import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, serve } from './env.mjs';

/**
 * @param {string} path where the page is served, `/claims.html`
 * @param {string} html the page
 */
export function enginePage(path, html) {
  let browser;
  let server;
  before(async () => {
    server = await serve({ pages: { [path]: html } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return async function open(t) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    t.after(() => context.close());
    const page = await context.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url(path));
    await page.evaluate(() => prufe.ready);
    return page;
  };
}
