import { chromium } from 'playwright-core';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, serve } from '../tests/js/support/env.mjs';
import { readFileSync } from 'node:fs';
const src = readFileSync('scripts/bench.mjs','utf8');
const b = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
const ctx = await b.newContext({ viewport: { width: 1280, height: 800 } });
const p = await ctx.newPage();
await p.addInitScript({ path: BUNDLE });
const blocks = 300; let body='<main>';
for (let i=0;i<blocks;i++) body+=`<section aria-label="Block ${i}"><h2>Block ${i}</h2><ul id="list-${i}"><li>Item ${i}.1</li><li>Item ${i}.2</li><li>Item ${i}.3</li><li>Item ${i}.4</li></ul><button type="button">Add ${i}</button> <button type="button" aria-pressed="false">Star ${i}</button><a href="#item-${i}">Details ${i}</a> <label>Quantity ${i} <input type="number" value="${i % 7}"></label></section>`;
const server = await serve({ pages: { '/x.html': '<!doctype html><html><body>'+body+'</main></body></html>' } }); await p.goto(server.url('/x.html'));
await p.evaluate(() => prufe.ready);
const FULL = { maxElements: 100000, budgetMs: 600000 };
console.log(await p.evaluate((o) => { prufe.snapshot(o); prufe.snapshot(o); const t0=performance.now(); const s=prufe.snapshot(o); const t1=performance.now(); const j=JSON.stringify(s); const t2=performance.now(); window.__j=j; return {snap:t1-t0, stringify:t2-t1, bytes:j.length, sample: JSON.stringify(s.elements[10])}; }, FULL));
for (let k=0;k<3;k++){
let t=performance.now(); const str = await p.evaluate(() => window.__j); const t1=performance.now(); JSON.parse(str); const t2=performance.now();
console.log('transfer', (t1-t).toFixed(1), 'parse', (t2-t1).toFixed(1));
}
const yaml = await p.locator('body').ariaSnapshot(); console.log('aria bytes', yaml.length);
await b.close(); await server.close();
