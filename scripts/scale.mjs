#!/usr/bin/env node
// `make bench`: verified actions at scale. The same script, run in 1, 2, 4 and 8 sessions at
// once, each session a process of its own with its own Chromium (as Playwright Test's workers
// and a fleet of agents run), on `fixtures/shop.html`:
//   - node:  the npm package under Playwright, `v.click` on "Add <product>" N times, then the
//            recycling list's "Add Shirt M", which must be a MISMATCH, undone;
//   - bare:  the same clicks with Playwright's own `locator.click()`, nothing checked;
//   - cli:   `prufe run URL --script FILE --json` with the same clicks (the release binary when
//            it is built, else the debug one, as said in the output);
//   - pwtest: the node surface's clicks as a Playwright Test spec with the `prufe/test` fixture
//            (scripts/scale-pwtest/), run once with `--repeat-each=N --workers=N`: N workers,
//            each a process with its own Chromium running the spec once, under one runner.
// Prints per surface and level: verified actions per second (all sessions' steps over the
// span from the first step's start to the last one's end), p50 and p95 step time, memory per
// session (the peak proportional set size of every process of the sessions, Chromium's
// included, over the number of sessions), and whether every session at every level gave the
// same verdicts. Writes bench/scale.md (or the file of `--out`).
//
//   node scripts/scale.mjs [--levels 1,2,4,8] [--clicks 12] [--surfaces node,bare,cli,pwtest] [--out FILE]

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM, CHROMIUM_FLAGS, ROOT, serve } from '../tests/js/support/env.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const SELF = fileURLToPath(import.meta.url);
const PRODUCTS = ['Shirt M', 'Trousers L', 'Socks S', 'Jumper XL', 'Cap'];
const product = (i) => PRODUCTS[i % PRODUCTS.length];

// ---- a session (a child process) -------------------------------------------------------

/** One session of `surface`: its steps' times (epoch ms) and verdicts, sent to the parent. */
async function session(surface, base, clicks) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  const steps = [];
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/shop.html`);
    const { prufe } = surface === 'node' ? await import('../node/src/playwright.js') : {};
    const verifier = prufe ? await prufe(page, {}) : null;
    const button = (name) => page.getByRole('button', { name, exact: true });
    for (let i = 0; i < clicks; i++) {
      const start = performance.timeOrigin + performance.now();
      let verdict = 'none';
      if (verifier) verdict = (await verifier.click(button(`Add ${product(i)}`))).verdict;
      else await button(`Add ${product(i)}`).click();
      steps.push({ start, end: performance.timeOrigin + performance.now(), verdict });
    }
    if (verifier) {
      await page.goto(`${base}/recycled-list.html`);
      const recycling = await prufe(page, {});
      const start = performance.timeOrigin + performance.now();
      let verdict;
      try {
        verdict = `${(await recycling.click(button('Add Shirt M'))).verdict} (not refused)`;
      } catch (error) {
        const record = /** @type {any} */ (error).record;
        verdict = record ? `${record.verdict}, ${record.undone} undone` : /** @type {any} */ (error).code;
      }
      steps.push({ start, end: performance.timeOrigin + performance.now(), verdict, recycled: true });
    }
  } finally {
    await browser.close();
  }
  return steps;
}

// ---- the parent ----------------------------------------------------------------------------

/** The pids below `root` (itself included), from /proc. */
function tree(root) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(Number(name));
    } catch {
      // The process ended while the table was read.
    }
  }
  const out = [];
  const visit = (pid) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

/** Proportional set size of the processes, in MiB (shared pages split between them). */
function pss(pids) {
  let kib = 0;
  for (const pid of pids) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (match) kib += Number(match[1]);
    } catch {
      // Ended, or not ours to read.
    }
  }
  return kib / 1024;
}

/** The prufe binary to run, release first. */
function cliBinary() {
  for (const profile of ['release', 'debug']) {
    const path = join(ROOT, 'target', profile, 'prufe');
    if (existsSync(path)) return { path, profile };
  }
  return null;
}

/** Peak PSS of the process trees of `children` (sampled every 250 ms) until they all exit. */
async function peakWhile(children) {
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, pss(children.flatMap(({ child }) => tree(child.pid))));
  }, 250);
  const exits = await Promise.all(children.map((c) => c.done));
  clearInterval(sampler);
  return { exits, peak };
}

/**
 * `n` sessions as Playwright Test workers: the spec of scripts/scale-pwtest/ run once with
 * `--repeat-each=n --workers=n`; its sessions' steps come from the JSON report, and every
 * copy must have run in a worker of its own.
 */
async function workers(n, base, clicks, work) {
  const report = join(work, `pwtest-${n}.json`);
  const child = spawn(process.execPath, [
    join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test',
    '-c', join(ROOT, 'scripts', 'scale-pwtest', 'playwright.config.mjs'),
    '--reporter=json', `--repeat-each=${n}`, `--workers=${n}`, `--output=${join(work, `pwtest-${n}`)}`,
  ], {
    cwd: ROOT,
    env: { ...process.env, PRUFE_FIXTURES: base, PRUFE_CLICKS: String(clicks), PLAYWRIGHT_JSON_OUTPUT_NAME: report, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', CI: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const done = new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  const { exits: [{ code }], peak } = await peakWhile([{ child, done }]);
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    throw new Error(`pwtest with ${n} workers exited with ${code} and no report: ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
  }
  const results = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) for (const t of spec.tests) results.push(...t.results);
    for (const inner of suite.suites ?? []) walk(inner);
  };
  parsed.suites.forEach(walk);
  const failed = results.filter((r) => r.status !== 'passed');
  if (code !== 0 || failed.length || results.length !== n) {
    throw new Error(`pwtest with ${n} workers: exit ${code}, ${results.length} results, ${failed.length} not passed: ${failed.flatMap((r) => r.errors.map((e) => e.message)).join(' | ').slice(0, 2000)}`);
  }
  const indexes = new Set(results.map((r) => r.workerIndex));
  if (indexes.size !== n) throw new Error(`pwtest: ${n} copies of the spec ran in ${indexes.size} workers, not one each`);
  const sessions = results.map((r) => JSON.parse(r.annotations.find((a) => a.type === 'steps').description));
  return { sessions, peakMiB: peak };
}

/** Runs `n` sessions of `surface` at once; returns their steps and the peak memory. */
async function level(surface, n, base, clicks, script, binary, work) {
  if (surface === 'pwtest') return workers(n, base, clicks, work);
  const children = [];
  for (let k = 0; k < n; k++) {
    const steps = [];
    let child;
    if (surface === 'cli') {
      child = spawn(binary.path, ['run', `${base}/shop.html`, '--script', script, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let buffered = '';
      let last = null;
      child.stdout.on('data', (chunk) => {
        buffered += chunk;
        let newline;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = JSON.parse(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          const end = Date.now();
          // A step's time is the time since the previous line; the first one also holds the
          // browser's launch, so it is left out of the step times.
          if (last !== null) steps.push({ start: last, end, verdict: line.verdict ?? line.error });
          else steps.push({ start: end, end, verdict: line.verdict ?? line.error, first: true });
          last = end;
        }
      });
    } else {
      child = spawn(process.execPath, [SELF, '--session', surface, '--base', base, '--clicks', String(clicks)], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
      child.on('message', (message) => steps.push(...message));
    }
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    children.push({ child, steps, done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr }))) });
  }
  const { exits, peak } = await peakWhile(children);
  exits.forEach(({ code, stderr }, k) => {
    if (code !== 0) throw new Error(`${surface} session ${k + 1} of ${n} exited with ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`);
  });
  return { sessions: children.map((c) => c.steps), peakMiB: peak };
}

/** `MATCH · MATCH · MISMATCH` as `MATCH ×2 · MISMATCH`. */
function runs(sequence) {
  const out = [];
  for (const v of sequence.split(' · ')) {
    if (out.length && out.at(-1).v === v) out.at(-1).n++;
    else out.push({ v, n: 1 });
  }
  return out.map(({ v, n }) => (n > 1 ? `${v} ×${n}` : v)).join(' · ');
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

async function main() {
  const levels = option('levels', '1,2,4,8').split(',').map(Number);
  const clicks = Number(option('clicks', '12'));
  const surfaces = option('surfaces', 'node,bare,cli,pwtest').split(',');
  const outFile = resolve(option('out', join(ROOT, 'bench', 'scale.md')));
  const binary = cliBinary();
  const server = await serve();
  const base = server.url('').replace(/\/$/, '');
  const work = mkdtempSync(join(tmpdir(), 'prufe-scale-'));
  const script = join(work, 'shop.json');
  writeFileSync(script, JSON.stringify(Array.from({ length: clicks }, (_, i) => ({ action: 'click', target: { role: 'button', name: `Add ${product(i)}` } }))));
  const rows = [];
  const verdictsOf = {};
  try {
    for (const surface of surfaces) {
      if (surface === 'cli' && !binary) {
        rows.push(`| cli | — | the prufe binary is not built (cargo build -p prufe-harness --release) | | | | |`);
        continue;
      }
      for (const n of levels) {
        process.stdout.write(`scale: ${surface}, ${n} session${n > 1 ? 's' : ''} at once...\n`);
        const { sessions, peakMiB } = await level(surface, n, base, clicks, script, binary, work);
        const timed = sessions.flat().filter((s) => !s.first && !s.recycled);
        const times = timed.map((s) => s.end - s.start);
        const span = Math.max(...timed.map((s) => s.end)) - Math.min(...timed.map((s) => s.start));
        const perSecond = (timed.length / span) * 1000;
        const verdicts = sessions.map((steps) => steps.map((s) => s.verdict).join(' · '));
        verdictsOf[surface] ??= new Set();
        for (const v of verdicts) verdictsOf[surface].add(v);
        rows.push(`| ${surface}${surface === 'cli' ? ` (${binary.profile})` : ''} | ${n} | ${perSecond.toFixed(1)} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${(peakMiB / n).toFixed(0)} | ${new Set(verdicts).size === 1 ? 'same in every session' : `${new Set(verdicts).size} different`} |`);
      }
    }
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  const lines = [];
  const out = (s = '') => { lines.push(s); process.stdout.write(s + '\n'); };
  out(`prufe scale bench — ${new Date().toISOString()}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the end`);
  out();
  out(`${clicks} clicks on fixtures/shop.html per session, each session a process with its own Chromium, all started at once.`);
  if (surfaces.includes('pwtest')) out('pwtest: a session is a Playwright Test worker (`--repeat-each=N --workers=N`); its memory includes a share of the one runner process.');
  out();
  out('| surface | sessions | actions/s (all sessions) | p50 step ms | p95 step ms | MiB per session (peak PSS) | verdicts |');
  out('|---|---:|---:|---:|---:|---:|---|');
  for (const row of rows) out(row);
  out();
  for (const [surface, set] of Object.entries(verdictsOf)) {
    out(`${surface}: ${set.size === 1 ? 'the same verdicts in every session at every level' : `${set.size} different verdict sequences across sessions and levels`}: ${[...set].map(runs).join(' / ')}`);
  }
  writeFileSync(outFile, lines.join('\n') + '\n');
  out();
  out(`written: ${relative(ROOT, outFile).startsWith('..') ? outFile : relative(ROOT, outFile)}`);
}

if (process.argv.includes('--session')) {
  const steps = await session(option('session', 'node'), option('base', ''), Number(option('clicks', '12')));
  process.send(steps);
  process.disconnect();
} else {
  await main();
}
