#!/usr/bin/env node
// prufe on a Selenium Grid 4 at scale: the clicks of scripts/scale.mjs (8 by default, "Add
// <product>" on fixtures/shop.html), run with `prufe run --connect <se:cdp>` in 1, 2 and 4
// WebDriver sessions of one grid at once, beside the same runs with prufe launching its own
// Chromium. The grid is scripts/grid.sh's (standalone, Debian's Chromium and ChromeDriver,
// 4 slots), started here on a free port and stopped at the end, also on a failure.
// Prints a markdown table: verified actions per second (all sessions' steps over the span
// from the first step's start to the last one's end), p50 and p95 step time (a step's time is
// the time between two of its run's JSON lines; the first line, which also holds the attach
// and the page's load, is left out), the time POST /session took, and whether every session
// gave the same verdicts.
//
//   scripts/grid.sh install && node scripts/scale_grid.mjs [--levels 1,2,4] [--clicks 8] [--out FILE]

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, serve } from '../tests/js/support/env.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const PRODUCTS = ['Shirt M', 'Trousers L', 'Socks S', 'Jumper XL', 'Cap'];
const GRID = join(ROOT, 'scripts', 'grid.sh');

/** The prufe binary to run, release first. */
function cliBinary() {
  for (const profile of ['release', 'debug']) {
    const path = join(ROOT, 'target', profile, 'prufe');
    if (existsSync(path)) return { path, profile };
  }
  throw new Error('the prufe binary is not built (cargo build -p prufe-harness --bin prufe)');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** One exchange with the grid's HTTP API. */
async function http(port, method, path, body) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, value: (await response.json()).value };
}

/** Starts the grid and waits for /status to say it is ready. */
async function startGrid() {
  const port = await freePort();
  const child = spawn(GRID, ['start', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => { log = (log + chunk).slice(-4000); });
  let exited = null;
  child.once('exit', (code) => { exited = code; });
  const started = Date.now();
  for (;;) {
    if (exited !== null) throw new Error(`the grid exited (${exited}) before it was ready:\n${log}`);
    try {
      const { value } = await http(port, 'GET', '/status');
      if (value.ready) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() - started > 120_000) throw new Error(`the grid was not ready within 120 s:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = () => new Promise((resolve) => {
    if (exited !== null) return resolve(exited);
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  return { port, readyMs: Date.now() - started, stop };
}

/** One `prufe run`: its steps (epoch ms) and verdicts, as scripts/scale.mjs times them. */
function run(binary, url, script, connect) {
  const args = ['run', url, '--script', script, '--json', ...(connect ? ['--connect', connect] : [])];
  const child = spawn(binary.path, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const steps = [];
  let buffered = '';
  let last = null;
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      const end = Date.now();
      steps.push({ start: last ?? end, end, verdict: line.verdict ?? line.error, first: last === null });
      last = end;
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  return new Promise((resolve, reject) => child.on('exit', (code) => {
    if (code !== 0) reject(new Error(`prufe run exited with ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    else resolve(steps);
  }));
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

function row(surface, n, sessions, extra) {
  const timed = sessions.flat().filter((s) => !s.first);
  const times = timed.map((s) => s.end - s.start);
  const span = Math.max(...timed.map((s) => s.end)) - Math.min(...timed.map((s) => s.start));
  const verdicts = new Set(sessions.map((steps) => steps.map((s) => s.verdict).join(' · ')));
  const same = verdicts.size === 1 && [...verdicts][0].split(' · ').every((v) => v === 'MATCH');
  return `| ${surface} | ${n} | ${((timed.length / span) * 1000).toFixed(1)} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} | ${extra} | ${same ? 'MATCH in every step of every session' : [...verdicts].join(' / ')} |`;
}

async function main() {
  const levels = option('levels', '1,2,4').split(',').map(Number);
  const clicks = Number(option('clicks', '8'));
  const binary = cliBinary();
  const installed = spawnSync(GRID, ['jar'], { encoding: 'utf8' });
  if (installed.status !== 0) throw new Error(installed.stderr.trim());
  const server = await serve();
  const url = `${server.url('').replace(/\/$/, '')}/shop.html`;
  const work = mkdtempSync(join(tmpdir(), 'prufe-scale-grid-'));
  const script = join(work, 'shop.json');
  writeFileSync(script, JSON.stringify(Array.from({ length: clicks }, (_, i) => ({ action: 'click', target: { role: 'button', name: `Add ${PRODUCTS[i % PRODUCTS.length]}` } }))));
  const rows = [];
  let grid = null;
  const sessions = new Set();
  try {
    grid = await startGrid();
    for (const n of levels) {
      process.stderr.write(`scale_grid: ${n} grid session${n > 1 ? 's' : ''} at once...\n`);
      const made = await Promise.all(Array.from({ length: n }, async () => {
        const t = Date.now();
        const { status, value } = await http(grid.port, 'POST', '/session', { capabilities: { alwaysMatch: { browserName: 'chrome' } } });
        if (status !== 200) throw new Error(`POST /session: ${status} ${JSON.stringify(value)}`);
        sessions.add(value.sessionId);
        return { id: value.sessionId, cdp: value.capabilities['se:cdp'], ms: Date.now() - t };
      }));
      const steps = await Promise.all(made.map((s) => run(binary, url, script, s.cdp)));
      await Promise.all(made.map(async (s) => {
        await http(grid.port, 'DELETE', `/session/${s.id}`);
        sessions.delete(s.id);
      }));
      const startMs = percentile(made.map((s) => s.ms), 50);
      rows.push(row('grid (`--connect` se:cdp)', n, steps, `${startMs.toFixed(0)}`));
    }
    for (const n of levels) {
      process.stderr.write(`scale_grid: ${n} local launch${n > 1 ? 'es' : ''} at once...\n`);
      const steps = await Promise.all(Array.from({ length: n }, () => run(binary, url, script, null)));
      rows.push(row('local (prufe launches Chromium)', n, steps, '—'));
    }
  } finally {
    if (grid) {
      await Promise.all([...sessions].map((id) => http(grid.port, 'DELETE', `/session/${id}`).catch(() => {})));
      await grid.stop();
    }
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
  const lines = [];
  const out = (s = '') => {
    lines.push(s);
    process.stdout.write(s + '\n');
  };
  out(`prufe on a Selenium Grid — ${new Date().toISOString()}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} at the end, prufe ${binary.profile} build, grid ready in ${(grid.readyMs / 1000).toFixed(1)} s`);
  out();
  out(`${clicks} verified clicks on fixtures/shop.html per session, all sessions at once; a grid session is a WebDriver session of one standalone grid (Selenium 4, Debian's Chromium under ChromeDriver), prufe attached to its se:cdp.`);
  out();
  out('| browser | sessions | actions/s (all sessions) | p50 step ms | p95 step ms | p50 POST /session ms | verdicts |');
  out('|---|---:|---:|---:|---:|---:|---|');
  for (const r of rows) out(r);
  const file = option('out', null);
  if (file) writeFileSync(file, lines.join('\n') + '\n');
}

await main();
