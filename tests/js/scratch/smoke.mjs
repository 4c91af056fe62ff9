import { chromium } from 'playwright-core';
import { prufe } from '/work/wt/node/node/src/index.js';
import { serve, CHROMIUM, CHROMIUM_FLAGS } from '/work/wt/node/tests/js/support/env.mjs';
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage();
  await page.goto(server.url('/shop.html'));
  let t = Date.now();
  const v = await prufe(page);
  console.log('setup', Date.now() - t); t = Date.now();
  const r = await v.click({ role: 'button', name: 'Add Shirt M' }, { intent: 'add Shirt M to the cart' });
  console.log(Date.now() - t, r.verdict, r.reason);
  const r2 = await v.click(page.getByRole('button', { name: 'Add Socks S' }));
  console.log(r2.verdict, r2.target);
  console.log(await page.evaluate(() => typeof window.prufe));
  await page.goto(server.url('/recycled-list.html'));
  try { await v.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'add Shirt M to the cart' }); } catch (e) { console.log(e.name, e.code); console.log(e.explain()); }
  try { await v.click(page.getByRole('button')); } catch (e) { console.log(e.name, e.code, e.message, e.candidates?.length); }
} finally { await browser.close(); await server.close(); }
