// The prufe package with Puppeteer on /usr/bin/chromium: the same scenarios, records and
// checks as with Playwright (support/package-suite.mjs), through ElementHandles.

import { after, before } from 'node:test';
import puppeteer from 'puppeteer-core';
import { prufe } from '../../node/src/puppeteer.js';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile, serve } from './support/env.mjs';
import { STRICT_PAGE, packageSuite } from './support/package-suite.mjs';

let browser;
let server;
let profile;

before(async () => {
  server = await serve({ pages: { '/strict.html': STRICT_PAGE } });
  profile = freshProfile();
  browser = await puppeteer.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true, userDataDir: profile.dir });
});

after(async () => {
  await browser?.close();
  await server?.close();
  await profile?.remove();
});

/** @param {import('puppeteer-core').Page} page */
function helpers(page) {
  // The first frame with an element of that role and name (ARIA query: through shadow roots).
  const element = async ({ role, name }) => {
    const selector = `::-p-aria([name=${JSON.stringify(name)}][role=${JSON.stringify(role)}])`;
    for (const frame of page.frames()) {
      const handle = await frame.$(selector);
      if (handle) return handle;
    }
    // The engine's role the library's tree does not give (a file input as `button`).
    return { role, name };
  };
  return { element, act: async (t) => { const handle = await element(t); if (handle.click) await handle.click(); else throw new Error(`no ${t.role} named ${t.name}`); } };
}

packageSuite({
  name: 'Puppeteer',
  async open(t, path, host) {
    const page = await browser.newPage();
    t.after(() => page.close());
    await page.goto(server.url(path, host));
    return page;
  },
  verifier: (page, options) => prufe(page, options),
  helpers,
  css: (page, css) => page.$(css),
  viewport: (page, size) => page.setViewport(size),
});
