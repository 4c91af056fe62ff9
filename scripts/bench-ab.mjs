#!/usr/bin/env node
// Two builds of the engine side by side: each bundle in its own browser context of one
// Chromium, on the page `make bench` measures (scripts/bench-page.mjs), in alternating rounds
// (the order swapped every round) so that the load of a shared machine falls on both alike.
// Prints the median of every call per build and kind, with the plain JS walk of the same
// rounds. The page is served cross-origin isolated, so `performance.now()` is precise to a
// few microseconds rather than 0.1 ms.
//
//   node scripts/bench-ab.mjs BEFORE.js AFTER.js [--n 3000] [--rounds 20] [--per 10]
//     [--only plain,tree,aria,settled,style,snapshot]
//   node scripts/bench-ab.mjs BEFORE.js AFTER.js --inject 20
//
// Kinds: plain (the plain walk), settled (fingerprint polling a settled page), tree, aria,
// style, root (the fingerprint after that change, as in scripts/bench.mjs), snapshot (in
// page, settled), snapshotTree (in page, after a list item came and went).
//
// With `--inject N`, what every document pays instead (scripts/bench-inject.mjs, the rows of
// `make bench`), N samples of each, the bundles and a page without the engine taken in turn
// within every sample: the injected script's own parse and run, injection to `ready`, and the
// page's first script delayed in a fresh context (cold) and in a tab that loads it again
// (warm), with the longest task after it.

import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, serve } from '../tests/js/support/env.mjs';
import { coldOnce, injectOnce, injectionPages, warmTab } from './bench-inject.mjs';
import { FULL, benchPage, change, plainWalk } from './bench-page.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const bundles = process.argv.slice(2).filter((a) => a.endsWith('.js'));
if (bundles.length < 2) {
  process.stderr.write('usage: node scripts/bench-ab.mjs BEFORE.js AFTER.js [--n 3000] [--rounds 20] [--per 10] [--only kinds]\n');
  process.exit(2);
}
const N = Number(option('n', '3000'));
const ROUNDS = Number(option('rounds', '20'));
const PER = Number(option('per', '10'));
const KINDS = option('only', 'plain,settled,tree,aria,style,snapshot').split(',');
const INJECT = Number(option('inject', '0'));
/** Calls of each kind before the timed ones (see WARMUP in scripts/bench.mjs). */
const WARMUP = 8;

/** `runs` calls of `kind` in the page, each after its change; milliseconds. */
function inPage(page, kind, runs) {
  return page.evaluate(({ kind, runs, FULL, walkSource, changeSource }) => {
    const walk = new Function(`return (${walkSource})();`);
    const change = new Function('kind', 'i', `return (${changeSource})(kind, i);`);
    const call = {
      plain: walk,
      snapshot: () => prufe.snapshot(FULL),
      snapshotTree: () => prufe.snapshot(FULL),
    }[kind] ?? (() => prufe.fingerprint(FULL));
    const mutation = { snapshotTree: 'tree', settled: 'none', snapshot: 'none', plain: 'none' }[kind] ?? kind;
    const times = [];
    for (let i = 0; i < runs; i++) {
      globalThis.benchTick = (globalThis.benchTick ?? 0) + 1;
      change(mutation, globalThis.benchTick);
      void document.body.offsetHeight;
      const start = performance.now();
      call();
      times.push(performance.now() - start);
    }
    return times;
  }, { kind, runs, FULL, walkSource: plainWalk.toString(), changeSource: change.toString() });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** `--inject`: every row per bundle (and the first script's figures without the engine), each
 * sample of every bundle in one round, the order turned round every round; medians. */
async function injectionAB(browser, server, sources) {
  const rows = [['run', "the injected script's own parse and run"], ['ready', 'injection to ready'],
    ['cold', 'first script at, fresh context'], ['warm', 'first script at, same tab'], ['stall', 'longest task after it']];
  const builds = [{ name: 'no engine', source: null }, ...sources].map((b) => ({ ...b, times: Object.fromEntries(rows.map(([k]) => [k, []])) }));
  const tabs = [];
  for (const b of builds) tabs.push(await warmTab(browser, server, b.source));
  try {
    for (const [i, tab] of tabs.entries()) await tab.load(`warmup-${i}`);
    for (let r = 0; r < INJECT; r++) {
      const order = r % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
      for (const i of order) {
        const b = builds[i];
        if (b.source !== null) {
          const { ready, run } = await injectOnce(browser, server, b.source);
          b.times.ready.push(ready);
          b.times.run.push(run);
        }
        const cold = await coldOnce(browser, server, b.source);
        b.times.cold.push(cold.first);
        b.times.stall.push(cold.stall);
        const warm = await tabs[i].load(`${r}`);
        b.times.warm.push(warm.first);
        b.times.stall.push(warm.stall);
      }
    }
  } finally {
    for (const tab of tabs) await tab.close();
  }
  // On a loaded machine a sample is only ever made slower (the renderer waits for the CPU), so
  // the first quartile is printed beside the median.
  const quartile = (xs) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 4)];
  process.stdout.write(`${INJECT} samples of each, alternating, medians (first quartiles) in ms\n`);
  process.stdout.write(''.padEnd(40) + builds.map((b) => b.name.slice(-24).padStart(26)).join('') + '\n');
  for (const [key, label] of rows) {
    const cell = (xs) => (xs.length ? `${median(xs).toFixed(2)} (${quartile(xs).toFixed(2)})` : '');
    process.stdout.write(label.padEnd(40) + builds.map((b) => cell(b.times[key]).padStart(26)).join('') + '\n');
  }
}

const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
if (INJECT > 0) {
  const server = await serve({ pages: injectionPages() });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  try {
    await injectionAB(browser, server, bundles.map((bundle) => ({ name: bundle, source: readFileSync(bundle, 'utf8') })));
  } finally {
    await browser.close();
    await server.close();
  }
  process.exit(0);
}
const server = await serve({ pages: { '/bench.html': benchPage(N) }, headers: { '/bench.html': isolated } });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
try {
  const builds = [];
  for (const bundle of bundles) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript({ content: readFileSync(bundle, 'utf8') });
    await page.goto(server.url('/bench.html'));
    await page.evaluate(() => prufe.ready);
    for (const kind of KINDS) await inPage(page, kind, WARMUP);
    builds.push({ bundle, page, times: Object.fromEntries(KINDS.map((k) => [k, []])) });
  }
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...builds].reverse() : builds;
    for (const kind of KINDS) {
      for (const b of order) b.times[kind].push(...(await inPage(b.page, kind, PER)));
    }
  }
  const isolatedAll = await Promise.all(builds.map((b) => b.page.evaluate(() => crossOriginIsolated)));
  process.stdout.write(`N=${N}, ${ROUNDS} rounds of ${PER} calls, medians in ms${isolatedAll.every(Boolean) ? '' : ' (not isolated: 0.1 ms timer)'}\n`);
  process.stdout.write('kind'.padEnd(14) + builds.map((b) => b.bundle.padStart(24)).join('') + '\n');
  for (const kind of KINDS) {
    process.stdout.write(kind.padEnd(14) + builds.map((b) => median(b.times[kind]).toFixed(3).padStart(24)).join('') + '\n');
  }
  if (KINDS.includes('plain')) {
    for (const kind of KINDS.filter((k) => k !== 'plain')) {
      process.stdout.write(`${kind} / plain`.padEnd(22) + builds.map((b) => (median(b.times[kind]) / median(b.times.plain)).toFixed(3).padStart(16)).join('') + '\n');
    }
  }
} finally {
  await browser.close();
  await server.close();
}
