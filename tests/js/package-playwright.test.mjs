// The prufe package with Playwright on /usr/bin/chromium: every scenario of the parity suite,
// strict library elements, isolation, secrets (support/package-suite.mjs). That the records are
// the CLI's is the parity suite's test (tests/python/test_parity.py).

import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { prufe } from '../../node/src/playwright.js';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile, serve } from './support/env.mjs';
import { STRICT_PAGE, packageSuite } from './support/package-suite.mjs';

let browser;
let server;
let profile;

before(async () => {
  server = await serve({ pages: { '/strict.html': STRICT_PAGE } });
  profile = freshProfile();
  browser = await chromium.launchPersistentContext(profile.dir, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
  await profile?.remove();
});

/** @param {import('playwright-core').Page} page */
function helpers(page) {
  // The first frame where the role and name match: top document, then the frames.
  const element = async ({ role, name }) => {
    for (const frame of page.frames()) {
      const locator = frame.getByRole(role, { name, exact: true });
      if ((await locator.count()) > 0) return locator;
    }
    // The engine's role the library's tree does not give (a file input as `button`).
    return { role, name };
  };
  return { element, act: async (t) => page.getByRole(t.role, { name: t.name, exact: true }).click() };
}

packageSuite({
  name: 'Playwright',
  async open(t, path, host) {
    const page = await browser.newPage();
    t.after(() => page.close());
    await page.goto(server.url(path, host));
    return page;
  },
  verifier: (page, options) => prufe(page, options),
  helpers,
  css: async (page, css) => page.locator(css),
  viewport: (page, size) => page.setViewportSize(size),
});
