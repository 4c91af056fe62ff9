import puppeteer from 'puppeteer-core';
import { prufe } from '../../../node/src/index.js';
import { serve, CHROMIUM, CHROMIUM_FLAGS, freshProfile } from '../support/env.mjs';
const server = await serve();
const profile = freshProfile();
const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true, userDataDir: profile.dir });
try {
  const page = await browser.newPage();
  await page.goto(server.url('/iframe-payment.html'));
  const v = await prufe(page);
  const frame = page.frames().find((f) => f.url().includes('payment-frame'));
  const card = await frame.$('#cc-number');
  const r = await v.fill(card, '4111111111111111');
  console.log(r.verdict, r.target, r.record.value);
  const r2 = await v.click(await frame.$('button[type=submit]'), { intent: 'the payment is accepted' });
  console.log(r2.verdict, r2.target, r2.reason);
  await page.goto(server.url('/shadow.html'));
  const add = await page.$('pierce/#add');
  const r3 = await v.click(add);
  console.log(r3.verdict, r3.target);
  const r4 = await v.click(page.locator('::-p-aria(Add Socks S)'));
  console.log(r4.verdict, r4.target);
} finally { await browser.close(); await server.close(); await profile.remove(); }
