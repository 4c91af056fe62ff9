#!/usr/bin/env node
// `make bench`: the observation engine against the alternatives, in one run, side by side, on
// generated pages of about 300, 3,000 and 30,000 observable elements (buttons, links,
// inputs, list items, headings, in landmarks):
//   prufe.fingerprint · prufe.snapshot · a plain JS TreeWalker attribute hash ·
//   Playwright's locator('body').ariaSnapshot() · CDP Accessibility.getFullAXTree
// Prints medians, the ratios the targets are stated in (at 3,000: fingerprint ≤ 0.5× the plain
// walk, snapshot ≤ 1/40 of ariaSnapshot, the fingerprint after a root style change ≤ 1.3× a
// getComputedStyle walk), whether each cost is linear in N, and what every document pays for
// the engine: the bundle's size, the page's main thread blocked by the injection (≤ 5 ms per
// document) and the median time from injection to `ready` (≤ 30 ms), each next to the figures
// before the engine compiled at injection and to the figure bench/results.json recorded last.
// Writes bench/results.json and bench/results.md.
//
//   node scripts/bench.mjs [--sizes 300,3000,30000] [--runs 15] [--inject 40]

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { decodeSnapshot, snapshotId } from '../js/wire.mjs';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, ROOT, serve } from '../tests/js/support/env.mjs';
import { STALL_WINDOW_MS, coldOnce, injectOnce, injectionPages, warmTab } from './bench-inject.mjs';
import { FULL, benchPage, change, plainWalk } from './bench-page.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const SIZES = option('sizes', '300,3000,30000').split(',').filter(Boolean).map(Number);
const RUNS = Number(option('runs', '15'));
/** Fresh pages the injection-to-ready time is the median of. */
const INJECT = Number(option('inject', '40'));
/** What every document pays for the engine: the targets, and the figures of the two `make bench`
 * runs before the engine's wasm was carried as text of seven ASCII characters for six bytes and
 * its imports were renamed (docs/speed.md: base64 in the comment, load 2.7 and 3.5). */
const INJECTION_TARGETS = { readyMs: 30, blockedMs: 5 };
const INJECTION_BEFORE = {
  ready: '56.4–63.9 ms',
  run: '5.55–5.60 ms',
  cold: '3.15–4.40 ms',
  warm: '4.15–9.10 ms',
  stall: '0.00–3.45 ms',
};
/** Calls before the timed ones, so that every method runs JIT-compiled code (V8 compiles
 * WebAssembly with a baseline tier first and optimises hot functions later). */
const WARMUP = 8;
/** A blind JS observer that reads what is shown: one TreeWalker over every element, FNV-1a over
 * the tag and the computed `display` and `visibility` of each (after a style change, every
 * element's style is computed again, as the engine must). */
function styleWalk() {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  let h = 0x811c9dc5;
  const mix = (s) => {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  };
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    const style = getComputedStyle(/** @type {Element} */ (node));
    mix(node.nodeName);
    mix(style.display);
    mix(style.visibility);
  }
  return (h >>> 0).toString(16);
}

/** Times `name` in the page `runs` times; a data attribute changes before each run so no
 * method can answer from a cache keyed on "nothing changed" (no style reads it: the engine
 * proves that and keeps what it read). With `mutate: 'style'`, a class of the body that a
 * style rule reads is toggled too, so every element's visibility must be read again. With
 * `mutate: 'tree'`, a list item is added to one list and the oldest added one removed, so
 * the engine patches its capture (walks the new item, drops the old one). With
 * `mutate: 'root'`, a class of the root element that a style rule reads is toggled, so every
 * element's style is computed again (the engine's and the getComputedStyle walk's). With
 * `mutate: 'aria'`, one button's `aria-pressed` toggles, so the engine walks that button
 * again. The full walk is measured with a caller-declared sensitive selector, which turns
 * the cache off. Layout is forced outside the timing. Returns milliseconds. */
async function inPage(page, name, runs, options, mutate = 'none') {
  return page.evaluate(async ({ name, runs, options, walkSource, styleWalkSource, changeSource, mutate, WARMUP }) => {
    const walk = new Function(`return (${walkSource})();`);
    const change = new Function('kind', 'i', `return (${changeSource})(kind, i);`);
    const call = {
      fingerprint: () => prufe.fingerprint(options),
      snapshot: () => prufe.snapshot(options),
      plainWalk: walk,
      styleWalk: new Function(`return (${styleWalkSource})();`),
    }[name];
    const times = [];
    for (let i = -WARMUP; i < runs; i++) {
      change(mutate, i);
      void document.body.offsetHeight;
      const start = performance.now();
      call();
      const ms = performance.now() - start;
      if (i >= 0) times.push(ms);
    }
    return times;
  }, { name, runs, options, walkSource: plainWalk.toString(), styleWalkSource: styleWalk.toString(), changeSource: change.toString(), mutate, WARMUP });
}

/** Times an operation driven from Node (round trip included), after two warm-up calls. */
async function fromNode(page, runs, operation) {
  const times = [];
  for (let i = -WARMUP; i < runs; i++) {
    await page.evaluate((tick) => { document.body.dataset.benchTick = String(tick); }, i);
    const start = performance.now();
    await operation();
    const ms = performance.now() - start;
    if (i >= 0) times.push(ms);
  }
  return times;
}

/** Times a snapshot taken to Node in the wire form after `mutate` (`change` of
 * bench-page.mjs, outside the timing: 'aria' toggles one button's `aria-pressed`, so the
 * snapshot has one changed row; 'none' changes what no snapshot shows). With `delta`, as a
 * verified step takes it once it has observed the page: a delta against the snapshot held
 * (`base`), decoded onto it; else the full form, decoded. */
async function wireFromNode(page, runs, mutate, delta) {
  let held = decodeSnapshot(await page.evaluate((o) => prufe.snapshot({ ...o, wire: true }), FULL));
  const times = [];
  for (let i = -WARMUP; i < runs; i++) {
    await page.evaluate(({ changeSource, mutate, i }) => new Function('kind', 'i', `return (${changeSource})(kind, i);`)(mutate, i), { changeSource: change.toString(), mutate, i });
    const start = performance.now();
    const base = delta ? snapshotId(held) : undefined;
    const wire = await page.evaluate(({ o, base }) => prufe.snapshot({ ...o, wire: true, base }), { o: FULL, base });
    held = decodeSnapshot(wire, held);
    const ms = performance.now() - start;
    if (delta && !JSON.parse(wire).base) throw new Error('bench: the engine answered the full form where a delta was asked for');
    if (i >= 0) times.push(ms);
  }
  return times;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const METHODS = [
  ['fingerprint', 'prufe.fingerprint (in page, polling a settled page)'],
  ['fingerprintStyle', 'prufe.fingerprint (in page, after a class change styles read)'],
  ['fingerprintTree', 'prufe.fingerprint (in page, after a list item came and went)'],
  ['fingerprintAria', 'prufe.fingerprint (in page, after an ARIA state toggled)'],
  ['fingerprintRoot', 'prufe.fingerprint (in page, after a root style change)'],
  ['fingerprintFull', 'prufe.fingerprint (in page, full walk: cache off)'],
  ['snapshot', 'prufe.snapshot (in page)'],
  ['snapshotFull', 'prufe.snapshot (in page, full walk after a list item came and went)'],
  ['snapshotWire', 'prufe.snapshot (to Node, wire form, decoded: a first snapshot)'],
  ['snapshotWireAria', 'prufe.snapshot (to Node, wire form, decoded, after an ARIA state toggled)'],
  ['snapshotDelta', 'prufe.snapshot (to Node, a delta applied, after an ARIA state toggled)'],
  ['snapshotDeltaSame', 'prufe.snapshot (to Node, a delta applied, nothing shown changed)'],
  ['snapshotRoundTrip', 'prufe.snapshot (to Node, as JSON objects)'],
  ['plainWalk', 'plain TreeWalker hash (in page)'],
  ['styleWalk', 'getComputedStyle walk (in page, after a root style change)'],
  ['ariaSnapshot', "Playwright ariaSnapshot (to Node)"],
  ['axTree', 'CDP getFullAXTree (to Node)'],
];

async function measure(browser, server, n) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ path: BUNDLE });
    await page.goto(server.url(`/bench-${n}.html`));
    await page.evaluate(() => prufe.ready);
    const observed = await page.evaluate((options) => {
      const s = prufe.snapshot(options);
      return { elements: s.elements.length, hasMore: s.hasMore, domElements: document.getElementsByTagName('*').length };
    }, FULL);
    const runs = n >= 30_000 ? Math.max(5, Math.ceil(RUNS / 3)) : RUNS;
    const cdp = await context.newCDPSession(page);
    const body = page.locator('body');
    const times = {
      fingerprint: await inPage(page, 'fingerprint', runs, FULL),
      fingerprintStyle: await inPage(page, 'fingerprint', runs, FULL, 'style'),
      fingerprintTree: await inPage(page, 'fingerprint', runs, FULL, 'tree'),
      fingerprintAria: await inPage(page, 'fingerprint', runs, FULL, 'aria'),
      fingerprintRoot: await inPage(page, 'fingerprint', runs, FULL, 'root'),
      fingerprintFull: await inPage(page, 'fingerprint', runs, { ...FULL, sensitive: ['#bench-none'] }),
      snapshot: await inPage(page, 'snapshot', runs, FULL),
      snapshotFull: await inPage(page, 'snapshot', runs, FULL, 'tree'),
      // As the harness fetches it: the compact wire string, decoded where it arrives.
      snapshotWire: await fromNode(page, runs, async () => decodeSnapshot(await page.evaluate((o) => prufe.snapshot({ ...o, wire: true }), FULL))),
      // As a driver would fetch it: one JSON string over the protocol, parsed in Node.
      // A verified step's "after" (one element changed) in the full form and as the Node
      // package takes it, a delta against the last snapshot; and its "before" (the page as the
      // last step's "after" left it) as a delta.
      snapshotWireAria: await wireFromNode(page, runs, 'aria', false),
      snapshotDelta: await wireFromNode(page, runs, 'aria', true),
      snapshotDeltaSame: await wireFromNode(page, runs, 'none', true),
      snapshotRoundTrip: await fromNode(page, runs, async () => JSON.parse(await page.evaluate((o) => JSON.stringify(prufe.snapshot(o)), FULL))),
      plainWalk: await inPage(page, 'plainWalk', runs),
      styleWalk: await inPage(page, 'styleWalk', runs, undefined, 'root'),
      ariaSnapshot: await fromNode(page, runs, () => body.ariaSnapshot({ timeout: 600_000 })),
      axTree: await fromNode(page, runs, () => cdp.send('Accessibility.getFullAXTree')),
    };
    await cdp.detach();
    const medians = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    return { n, runs, observed, medians };
  } finally {
    await context.close();
  }
}

/** Injection to `ready` and the injected script's own parse and run over `samples` fresh
 * pages (scripts/bench-inject.mjs, injectOnce), in milliseconds. */
async function injection(browser, server, bundle, samples) {
  const ready = [];
  const run = [];
  for (let i = 0; i < samples; i++) {
    const sample = await injectOnce(browser, server, bundle);
    ready.push(sample.ready);
    run.push(sample.run);
  }
  return { ready, run };
}

/**
 * The page's main thread blocked by the injection, what every document pays: before its own
 * scripts run, the time from the response's first byte to the page's first inline script
 * (the first element of its head); after, the longest task in the STALL_WINDOW_MS that follow
 * it. Each with the engine injected at document start and without it, `samples` times each,
 * alternating. Cold: each load in a fresh browser context (its own renderer, nothing compiled
 * before). Warm: the same tab loading the page again (what the second and later documents of a
 * session pay); the longest task is taken over both. Returns medians in milliseconds.
 */
async function blocking(browser, server, bundle, samples) {
  const cold = { bare: [], injected: [] };
  const stall = { bare: [], injected: [] };
  for (let i = 0; i < samples; i++) {
    for (const key of ['bare', 'injected']) {
      const { first, stall: longest } = await coldOnce(browser, server, key === 'injected' ? bundle : null);
      cold[key].push(first);
      stall[key].push(longest);
    }
  }
  const warm = { bare: [], injected: [] };
  for (const key of ['bare', 'injected']) {
    const tab = await warmTab(browser, server, key === 'injected' ? bundle : null);
    try {
      for (let i = -2; i < samples; i++) {
        const { first, stall: longest } = await tab.load(`${key}${i}`);
        if (i >= 0) {
          warm[key].push(first);
          stall[key].push(longest);
        }
      }
    } finally {
      await tab.close();
    }
  }
  const of = ({ bare, injected }) => ({ bareMs: median(bare), injectedMs: median(injected), blockedMs: Math.max(0, median(injected) - median(bare)) });
  return { cold: of(cold), warm: of(warm), stall: of(stall), samples };
}

/** bench/results.json as the last run wrote it, or null. */
function lastRecorded() {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8'));
  } catch {
    return null;
  }
}

function fmt(ms) {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

async function main() {
  const bundle = readFileSync(BUNDLE);
  const last = lastRecorded();
  const pages = Object.fromEntries(SIZES.map((n) => [`/bench-${n}.html`, benchPage(n)]));
  Object.assign(pages, injectionPages());
  const server = await serve({ pages });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  const results = [];
  const version = browser.version();
  let injectReady = null;
  let injectRun = null;
  let blocked = null;
  try {
    if (INJECT > 0) {
      process.stdout.write(`bench: injecting into ${INJECT} fresh pages...\n`);
      const injected = await injection(browser, server, bundle.toString('utf8'), INJECT);
      injectReady = median(injected.ready);
      injectRun = median(injected.run);
      process.stdout.write(`bench: the page's first script with and without the engine, ${INJECT} loads each...\n`);
      blocked = await blocking(browser, server, bundle.toString('utf8'), INJECT);
    }
    for (const n of SIZES) {
      process.stdout.write(`bench: measuring ${n} elements...\n`);
      results.push(await measure(browser, server, n));
    }
  } finally {
    await browser.close();
    await server.close();
  }

  const lines = [];
  const out = (s = '') => { lines.push(s); process.stdout.write(s + '\n'); };
  out(`prufe bench — Chromium ${version}, ${new Date().toISOString()}`);
  const bundleGzip = gzipSync(bundle).length;
  const wasRecorded = last ? ` (last recorded ${last.date}: ${last.bundleBytes} bytes, ${last.bundleGzipBytes} gzipped)` : '';
  out(`bundle ${relative(ROOT, BUNDLE)}: ${bundle.length} bytes, ${bundleGzip} gzipped${wasRecorded}`);
  const verdict = (ms, bound) => (ms <= bound ? 'met' : 'NOT met');
  if (injectReady !== null) {
    const was = (ms) => (ms == null ? 'not recorded' : `${fmt(ms)} ms`);
    out(`injection to ready, target ≤ ${INJECTION_TARGETS.readyMs} ms: ${fmt(injectReady)} ms, median of ${INJECT} fresh pages (before: ${INJECTION_BEFORE.ready}; last recorded: ${was(last?.injectReadyMs)}) → ${verdict(injectReady, INJECTION_TARGETS.readyMs)}`);
    out(`main thread blocked by the injection, target ≤ ${INJECTION_TARGETS.blockedMs} ms per document:`);
    out(`  the injected script's own parse and run: ${fmt(injectRun)} ms (before: ${INJECTION_BEFORE.run}; last recorded: ${was(last?.injectRunMs)}) → ${verdict(injectRun, INJECTION_TARGETS.blockedMs)}`);
  }
  if (blocked !== null) {
    const was = (key) => (last?.blocking?.[key] ? `${fmt(last.blocking[key].blockedMs)} ms` : 'not recorded');
    const line = (key, what, measured) => {
      const b = blocked[key];
      out(`  ${what}: ${fmt(b.blockedMs)} ms (${measured} ${fmt(b.injectedMs)} ms with the engine, ${fmt(b.bareMs)} ms without; median of ${blocked.samples}; before: ${INJECTION_BEFORE[key]}; last recorded: ${was(key)}) → ${verdict(b.blockedMs, INJECTION_TARGETS.blockedMs)}`);
    };
    line('cold', 'the page\'s first script delayed, first document of a renderer', 'the first script at');
    line('warm', 'the same, a later document in the same tab', 'the first script at');
    line('stall', `the longest task added in the ${STALL_WINDOW_MS} ms after the page's first script`, 'the longest');
  }
  const load = loadavg()[0];
  out(`machine: ${cpus().length} cores, load average ${load.toFixed(1)}${load > cpus().length ? ' (busy: medians are noisy, run again on an idle machine)' : ''}`);
  out();
  const header = ['median ms', ...results.map((r) => `N=${r.n} (${r.observed.elements} obs, ${r.observed.domElements} DOM)`)];
  out(`| ${header.join(' | ')} |`);
  out(`|${header.map(() => '---').join('|')}|`);
  for (const [key, label] of METHODS) out(`| ${label} | ${results.map((r) => fmt(r.medians[key])).join(' | ')} |`);
  out();
  const ratio = (r, a, b) => r.medians[a] / r.medians[b];
  out('| ratio | ' + results.map((r) => `N=${r.n}`).join(' | ') + ' |');
  out(`|---|${results.map(() => '---').join('|')}|`);
  out(`| fingerprint / plain walk | ${results.map((r) => ratio(r, 'fingerprint', 'plainWalk').toFixed(2)).join(' | ')} |`);
  out(`| fingerprint, after a class change / plain walk | ${results.map((r) => ratio(r, 'fingerprintStyle', 'plainWalk').toFixed(2)).join(' | ')} |`);
  out(`| fingerprint, after a list item came and went / plain walk | ${results.map((r) => ratio(r, 'fingerprintTree', 'plainWalk').toFixed(2)).join(' | ')} |`);
  out(`| fingerprint, after an ARIA state toggled / plain walk | ${results.map((r) => ratio(r, 'fingerprintAria', 'plainWalk').toFixed(2)).join(' | ')} |`);
  out(`| fingerprint, after a root style change / getComputedStyle walk | ${results.map((r) => ratio(r, 'fingerprintRoot', 'styleWalk').toFixed(2)).join(' | ')} |`);
  out(`| fingerprint, full walk / plain walk | ${results.map((r) => ratio(r, 'fingerprintFull', 'plainWalk').toFixed(2)).join(' | ')} |`);
  out(`| snapshot, full walk (in page) / ariaSnapshot | ${results.map((r) => ratio(r, 'snapshotFull', 'ariaSnapshot').toFixed(3)).join(' | ')} |`);
  out(`| snapshot (in page) / ariaSnapshot | ${results.map((r) => ratio(r, 'snapshot', 'ariaSnapshot').toFixed(3)).join(' | ')} |`);
  out(`| snapshot (to Node, wire) / ariaSnapshot | ${results.map((r) => ratio(r, 'snapshotWire', 'ariaSnapshot').toFixed(3)).join(' | ')} |`);
  out(`| snapshot (to Node, wire, after an ARIA toggle) / ariaSnapshot | ${results.map((r) => ratio(r, 'snapshotWireAria', 'ariaSnapshot').toFixed(3)).join(' | ')} |`);
  out(`| snapshot (to Node, delta, after an ARIA toggle) / ariaSnapshot | ${results.map((r) => ratio(r, 'snapshotDelta', 'ariaSnapshot').toFixed(3)).join(' | ')} |`);
  out(`| snapshot (to Node, delta, nothing shown changed) / ariaSnapshot | ${results.map((r) => ratio(r, 'snapshotDeltaSame', 'ariaSnapshot').toFixed(3)).join(' | ')} |`);
  out(`| snapshot (to Node, JSON objects) / ariaSnapshot | ${results.map((r) => ratio(r, 'snapshotRoundTrip', 'ariaSnapshot').toFixed(3)).join(' | ')} |`);
  out(`| snapshot (to Node, wire) / getFullAXTree | ${results.map((r) => ratio(r, 'snapshotWire', 'axTree').toFixed(3)).join(' | ')} |`);
  out();

  const at = results.find((r) => r.n === 3000);
  const lastAt = last?.results?.find((r) => r.n === 3000);
  const verdicts = {};
  if (at) {
    const met = (ok) => (ok ? 'met' : 'NOT met');
    // Each ratio at 3,000 against its target, with the ratio the last recorded run measured.
    const target = (key, label, a, b, bound, digits = 2) => {
      const now = at.medians[a] / at.medians[b];
      const before = lastAt?.medians?.[a] != null && lastAt?.medians?.[b] != null ? (lastAt.medians[a] / lastAt.medians[b]).toFixed(digits) + '×' : 'not recorded';
      verdicts[key] = now <= bound;
      out(`target at 3,000: ${label} ≤ ${bound}×: ${now.toFixed(digits)}× (last recorded: ${before}) → ${met(now <= bound)}`);
    };
    target('fingerprintPolling', 'fingerprint, polling a settled page / plain walk', 'fingerprint', 'plainWalk', 0.5);
    target('fingerprintAfterTreeChange', 'fingerprint after a list item came and went / plain walk', 'fingerprintTree', 'plainWalk', 0.5);
    target('fingerprintAfterAriaChange', 'fingerprint after an ARIA state toggled / plain walk', 'fingerprintAria', 'plainWalk', 0.5);
    target('fingerprintAfterClassChange', 'fingerprint after a class change / plain walk', 'fingerprintStyle', 'plainWalk', 0.5);
    target('fingerprintAfterRootStyleChange', 'fingerprint after a root style change / getComputedStyle walk', 'fingerprintRoot', 'styleWalk', 1.3);
    target('snapshotInPage', 'snapshot in page / ariaSnapshot', 'snapshot', 'ariaSnapshot', 0.025, 3);
    // A verified step observes before and after its action, each a delta against the last
    // observation (its "before" against the last step's "after", nothing shown changed since;
    // its "after" against its "before", its effect changed); only a page's first observation
    // is the full form. The target is stated on the "after", the dearer of the two.
    const r3 = (k) => (at.medians[k] / at.medians.ariaSnapshot).toFixed(3);
    target('snapshotToNode', `snapshot to Node as a verified step takes it, a delta after an ARIA toggle (its "after"; its "before", nothing changed: ${r3('snapshotDeltaSame')}×; a page's first, full: ${r3('snapshotWire')}×) / ariaSnapshot`, 'snapshotDelta', 'ariaSnapshot', 0.025, 3);
  }
  // Linear in N: the cost exponent between consecutive sizes, log(t2/t1) / log(n2/n1), stays
  // near 1 (≤ 1.3 allows for cache effects on large DOMs); quadratic behaviour shows as ~2.
  const sorted = [...results].sort((a, b) => a.n - b.n);
  verdicts.linear = {};
  for (const [key, label] of METHODS) {
    const exponents = [];
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1], sorted[i]];
      if (a.medians[key] < 0.5) continue; // below timer resolution: no signal
      exponents.push(Math.log(b.medians[key] / a.medians[key]) / Math.log(b.observed.elements / a.observed.elements));
    }
    const linear = exponents.length > 0 && exponents.every((e) => e <= 1.3);
    verdicts.linear[key] = linear;
    out(`linear in N: ${label.padEnd(56)} exponents ${exponents.map((e) => e.toFixed(2)).join(', ') || 'n/a'} → ${exponents.length ? (linear ? 'linear' : 'NOT linear') : 'too fast to tell'}`);
  }
  for (const r of results) {
    if (r.observed.hasMore) out(`note: at N=${r.n} the snapshot was truncated (hasMore)`);
  }

  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results.json'), JSON.stringify({
    chromium: version,
    date: new Date().toISOString(),
    bundleBytes: bundle.length,
    bundleGzipBytes: bundleGzip,
    injectReadyMs: injectReady,
    injectRunMs: injectRun,
    injectSamples: injectReady === null ? 0 : INJECT,
    blocking: blocked,
    loadAverage: loadavg()[0],
    results,
    verdicts,
  }, null, 2) + '\n');
  writeFileSync(join(ROOT, 'bench', 'results.md'), lines.join('\n') + '\n');
  out();
  out('written: bench/results.json, bench/results.md');
}

await main();
