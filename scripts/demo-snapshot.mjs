#!/usr/bin/env node
// Prints what prufe observes on a fixture page, taken in headless Chromium:
//   node scripts/demo-snapshot.mjs fixtures/recycled-list.html [--json]
// The stand-in for `make demo` until the harness binary provides `prufe demo`.

import { relative, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, FIXTURES, serve } from '../tests/js/support/env.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const file = args.find((a) => !a.startsWith('--')) ?? 'fixtures/recycled-list.html';
const path = '/' + relative(FIXTURES, resolve(file)).split('\\').join('/');

const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
try {
  const page = await browser.newPage();
  await page.addInitScript({ path: BUNDLE });
  await page.goto(server.url(path));
  const snapshot = await page.evaluate(async () => {
    await prufe.ready;
    return prufe.snapshot();
  });
  if (json) {
    process.stdout.write(JSON.stringify(snapshot, null, 2) + '\n');
  } else {
    const { context, elements, texts, hasMore } = snapshot;
    console.log(`snapshot of ${path}: ${elements.length} elements, ${texts.length} texts` +
      `${hasMore ? ' (truncated)' : ''}, epoch ${context.epoch}, snapshot ${context.snapshot}`);
    for (const e of elements) {
      const label = e.name || e.text || '';
      const states = ['checked', 'pressed', 'selected', 'expanded']
        .filter((k) => e[k] !== null && e[k] !== undefined)
        .map((k) => `${k}=${e[k]}`);
      if (e.value !== null) states.push(`value='${e.value}'`);
      if (e.disabled) states.push('disabled');
      if (!e.visible) states.push('hidden');
      console.log(`  ${e.ref.padEnd(10)} ${e.role}[${label}]${e.within ? ` in ${e.within}` : ''}${e.region ? ` in ${e.region}` : ''}` +
        `${states.length ? ` (${states.join(', ')})` : ''}`);
    }
    for (const t of texts) console.log(`  text ${t.kind}: '${t.text}'${t.region ? ` in ${t.region}` : ''}`);
  }
} finally {
  await browser.close();
  await server.close();
}
