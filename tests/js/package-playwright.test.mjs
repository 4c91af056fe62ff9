// The prufe package with Playwright on /usr/bin/chromium: every scenario's records equal to
// the CLI's (support/cli-records.json; with PRUFE_CLI, checked against a live `prufe run` of
// each scenario first), strict library elements, isolation, secrets (support/package-suite.mjs).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { prufe } from '../../node/src/playwright.js';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile, serve } from './support/env.mjs';
import { CLI_RECORDS, STRICT_PAGE, packageSuite } from './support/package-suite.mjs';
import { SCENARIOS, liveCli } from './support/scenarios.mjs';

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

describe('the recorded CLI records', () => {
  test('are what a live `prufe run` decides on each scenario', { skip: !process.env.PRUFE_CLI && 'set PRUFE_CLI to a prufe binary' }, async () => {
    const names = Object.keys(SCENARIOS);
    // Three at a time: each run starts a browser of its own.
    const live = {};
    for (let i = 0; i < names.length; i += 3) {
      await Promise.all(names.slice(i, i + 3).map(async (name) => {
        live[name] = await liveCli(process.env.PRUFE_CLI, server.url(SCENARIOS[name].page, SCENARIOS[name].host), SCENARIOS[name].steps);
      }));
    }
    for (const name of names) assert.deepEqual(live[name], CLI_RECORDS[name], name);
  });
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
});
