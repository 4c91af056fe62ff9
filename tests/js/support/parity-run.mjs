// The parity suite's npm-package players: every scenario of tests/parity/scenarios.json through
// the package's methods, with Playwright or Puppeteer, one browser for all of them; writes each
// scenario's trace records (`{records}`, raw).
// tests/python/test_parity.py runs it and compares the records with the CLI's:
//   node tests/js/support/parity-run.mjs --lib playwright|puppeteer --base URL --receipt FILE \
//     --window --window-size=W,H --out FILE

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHROMIUM, CHROMIUM_FLAGS, freshProfile } from './env.mjs';
import { PARITY, runScenario } from './scenarios.mjs';

const { values: args } = parseArgs({
  options: {
    lib: { type: 'string' }, base: { type: 'string' }, receipt: { type: 'string' }, window: { type: 'string' }, out: { type: 'string' },
  },
});
/** Playwright: a Locator by role and exact name, in the first frame that has one, else null. */
const playwright = {
  async launch(profile) {
    const { chromium } = await import('playwright-core');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, args.window], headless: true, viewport: null,
    });
    return { newPage: () => context.newPage(), close: () => context.close() };
  },
  verifier: async (page, options) => (await import('../../../node/src/playwright.js')).prufe(page, options),
  async element(page, { role, name }) {
    for (const frame of page.frames()) {
      const locator = frame.getByRole(role, { name, exact: true });
      if ((await locator.count()) > 0) return locator;
    }
    return null;
  },
};

/** Puppeteer: an ElementHandle by ARIA role and name (through shadow roots), first frame first, else null. */
const puppeteer = {
  async launch(profile) {
    const { default: pptr } = await import('puppeteer-core');
    const browser = await pptr.launch({
      executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, args.window], headless: true, userDataDir: profile, defaultViewport: null,
    });
    return { newPage: () => browser.newPage(), close: () => browser.close() };
  },
  verifier: async (page, options) => (await import('../../../node/src/puppeteer.js')).prufe(page, options),
  async element(page, { role, name }) {
    const selector = `::-p-aria([name=${JSON.stringify(name)}][role=${JSON.stringify(role)}])`;
    for (const frame of page.frames()) {
      const handle = await frame.$(selector);
      if (handle) return handle;
    }
    return null;
  },
};

function records(dir) {
  let names;
  try {
    names = readdirSync(dir).filter((n) => /^[0-9].*\.json$/.test(n)).sort();
  } catch {
    return [];
  }
  return names.map((file) => ({ file, ...JSON.parse(readFileSync(join(dir, file), 'utf8')) }));
}

async function play(lib, page, scenario, traceDir) {
  await page.goto(args.base.replace('127.0.0.1', scenario.host ?? '127.0.0.1') + scenario.page);
  const v = await lib.verifier(page, { traceDir, screenshots: 'off' });
  const helpers = {
    element: async (t) => (await lib.element(page, t)) ?? t,
    act: async (t) => (await lib.element(page, t)).click(),
  };
  await runScenario(v, scenario.steps, helpers, { files: { RECEIPT: args.receipt } });
}

const lib = { playwright, puppeteer }[args.lib];
if (!lib || !args.base || !args.receipt || !args.window || !args.out) {
  console.error('usage: parity-run.mjs --lib playwright|puppeteer --base URL --receipt FILE --window FLAG --out FILE');
  process.exit(2);
}
const profile = freshProfile();
const browser = await lib.launch(profile.dir);
const out = {};
try {
  for (const scenario of PARITY.scenarios) {
    const traceDir = mkdtempSync(join(tmpdir(), 'prufe-parity-traces-'));
    const page = await browser.newPage();
    try {
      await play(lib, page, scenario, traceDir);
      out[scenario.name] = { records: records(traceDir) };
    } finally {
      await page.close();
      rmSync(traceDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
  await profile.remove();
}
writeFileSync(args.out, JSON.stringify(out, null, 1));
