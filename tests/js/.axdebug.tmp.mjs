import puppeteer from 'puppeteer-core';
import { CHROMIUM, CHROMIUM_FLAGS, bundleSource, freshProfile, serve } from '/work/main/tests/js/support/env.mjs';
const server = await serve();
const profile = freshProfile();
const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS.filter((f) => !f.startsWith('--headless')), userDataDir: profile.dir });
const page = await browser.newPage();
await page.evaluateOnNewDocument(bundleSource());
await page.goto(server.url('/' + process.argv[2]), { waitUntil: 'load' });
const cdp = await page.createCDPSession();
await cdp.send('Accessibility.enable');
const ev = async (e) => (await cdp.send('Runtime.evaluate', { expression: e, returnByValue: true, awaitPromise: true })).result.value;
await ev('prufe.ready');
const snap = await ev('prufe.snapshot()');
for (const el of snap.elements) {
  if (!el.visible) continue;
  const h = await cdp.send('Runtime.evaluate', { expression: `prufe.element(${JSON.stringify(el.ref)})` });
  const { node } = await cdp.send('DOM.describeNode', { objectId: h.result.objectId });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { backendNodeId: node.backendNodeId, fetchRelatives: false });
  const ax = nodes.find((n) => n.backendDOMNodeId === node.backendNodeId) ?? nodes[0];
  const filt = process.argv[3];
  if (!filt || (el.role + el.name).includes(filt) || ax.ignored) console.log(el.role, JSON.stringify(el.name.slice(0, 60)), el.name.length, '|', ax.role?.value, JSON.stringify(String(ax.name?.value ?? '').slice(0, 60)), String(ax.name?.value ?? '').length, ax.ignored ? JSON.stringify(ax.ignoredReasons) : '');
}
await browser.close(); await server.close(); await profile.remove();
