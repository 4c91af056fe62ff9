import puppeteer from 'puppeteer-core';
import { chromium } from 'playwright-core';
import { prufe } from '../../../node/src/index.js';
import { serve, CHROMIUM, CHROMIUM_FLAGS, freshProfile } from '../support/env.mjs';
const server = await serve();
const profile = freshProfile();
for (const lib of ['pp', 'pw']) {
  const browser = lib === 'pp' ? await puppeteer.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true, userDataDir: profile.dir }) : await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const page = await browser.newPage();
  await page.goto(server.url('/hostile/20-native-dialogs.html'));
  const v = await prufe(page);
  const r = await v.click({ role: 'button', name: 'Save' }, { intent: 'saved' }).catch((e) => e.record);
  console.log(lib, r.verdict, r.reason, r.dialogs ?? r.record?.dialogs);
  const r2 = await v.click({ role: 'button', name: 'Delete item' }, { intent: 'the item is kept' }).catch((e) => e.record);
  console.log(lib, r2.verdict, r2.reason, r2.record?.dialogs ?? r2.dialogs);
  await browser.close();
}
await server.close(); await profile.remove();
