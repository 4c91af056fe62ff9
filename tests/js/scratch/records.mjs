import { chromium } from 'playwright-core';
import { prufe } from '../../../node/src/playwright.js';
import { CHROMIUM, CHROMIUM_FLAGS, serve } from '../support/env.mjs';
import { SCENARIOS, decidedSteps, runScenario, scratch } from '../support/scenarios.mjs';
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
const out = {};
const files = scratch();
for (const [name, s] of Object.entries(SCENARIOS)) {
  const page = await browser.newPage();
  await page.goto(server.url(s.page));
  const v = await prufe(page);
  const t = Date.now();
  const helpers = { element: async ({ role, name }) => { for (const f of page.frames()) { const l = f.getByRole(role, { name, exact: true }); if (await l.count()) return l; } }, act: async (t) => (await helpers.element(t)).click() };
  const ran = await runScenario(v, s.steps, helpers, { files: { 'receipt.txt': files.receipt } });
  out[name] = decidedSteps(ran);
  console.error(name, Date.now() - t, ran.map(r => r.error?.code ?? r.record.verdict).join(' '));
  await page.close();
}
files.remove();
console.log(JSON.stringify(out, null, 2));
await browser.close(); await server.close();
