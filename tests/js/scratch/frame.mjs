import puppeteer from 'puppeteer-core';
import { prufe } from '../../../node/src/puppeteer.js';
import { serve, CHROMIUM, CHROMIUM_FLAGS, freshProfile } from '../support/env.mjs';
const server = await serve();
const profile = freshProfile();
const browser = await puppeteer.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true, userDataDir: profile.dir });
try {
  const page = await browser.newPage();
  await page.goto(server.url('/iframe-payment.html'));
  const v = await prufe(page);
  const frame = page.frames().find((f) => f.url().includes('payment-frame'));
  const r = await v.fill(await frame.$('#cc-number'), '4111 1111 1111 1111');
  console.log(r.verdict, r.record.value);
  const r2 = await v.click({ role: 'button', name: 'Pay', frame: '0' }, { intent: 'the payment is accepted' });
  console.log(r2.verdict, r2.target);
} finally { await browser.close(); await server.close(); await profile.remove(); }
