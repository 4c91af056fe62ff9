// The prufe/test fixture at scale: eight tests (tests/js/playwright-workers/) under Playwright
// Test with four workers pass with their verdicts (MATCH, and the recycled list's MISMATCH
// undone), tests of at least two workers run at the same moment, every worker drives its own
// browser and every test its own engine world; then the same project as `--shard=1/2` and
// `--shard=2/2` runs every test exactly once between the two shards, with the same verdicts.
// Every test writes its trace records into a directory of its own (`testInfo.outputPath`).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { crateVersion, ROOT, serve } from './support/env.mjs';

const CONFIG = join(ROOT, 'tests/js/playwright-workers/playwright.config.mjs');
const TESTS = 8;

let server;
let rendezvous;
let dir;
before(async () => {
  server = await serve();
  rendezvous = await rendezvousServer();
  dir = mkdtempSync(join(tmpdir(), 'prufe-workers-'));
});
after(async () => {
  await server?.close();
  await rendezvous?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * The specs' meeting point: `/enter?worker=W` answers once tests of two workers have been
 * inside at the same moment (from then on at once), `/leave?worker=W` at once. `most` is the
 * largest number of workers seen inside together; `reset()` starts a new run.
 */
async function rendezvousServer() {
  let inside = new Map();
  let waiting = [];
  let most = 0;
  const http = createServer((request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const worker = url.searchParams.get('worker');
    if (url.pathname === '/leave') {
      inside.set(worker, (inside.get(worker) ?? 1) - 1);
      response.end('left');
      return;
    }
    inside.set(worker, (inside.get(worker) ?? 0) + 1);
    most = Math.max(most, [...inside.values()].filter((n) => n > 0).length);
    waiting.push(() => response.end('together'));
    if (most >= 2) waiting.splice(0).forEach((answer) => answer());
  });
  await new Promise((done) => http.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${http.address().port}`,
    most: () => most,
    reset() {
      inside = new Map();
      waiting = [];
      most = 0;
    },
    close: () => new Promise((done) => {
      http.closeAllConnections();
      http.close(() => done());
    }),
  };
}

/** `playwright test` on the project with the JSON reporter; resolves to the parsed report. */
function playwrightTest(name, args = []) {
  const report = join(dir, `${name}.json`);
  rendezvous.reset();
  return new Promise((done, fail) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'playwright'), ['test', '-c', CONFIG, '--reporter=json', `--output=${join(dir, name)}`, ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        PRUFE_FIXTURES: server.origin,
        PRUFE_RENDEZVOUS: rendezvous.url,
        PLAYWRIGHT_JSON_OUTPUT_NAME: report,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        CI: '1',
        FORCE_COLOR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('error', fail);
    child.on('close', (code) => {
      try {
        done({ code, output, report: JSON.parse(readFileSync(report, 'utf8')), most: rendezvous.most() });
      } catch (error) {
        fail(new Error(`${name}: no JSON report (exit ${code}): ${error.message}\n${output}`));
      }
    });
  });
}

/** Every test's last result in a JSON report: title, status, worker, times and its prufe note. */
function results(report) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const r = t.results.at(-1);
        const note = [...(r.annotations ?? []), ...(t.annotations ?? [])].find((a) => a.type === 'prufe');
        const start = Date.parse(r.startTime);
        out.push({
          title: spec.title,
          status: r.status,
          worker: r.workerIndex,
          start,
          end: start + r.duration,
          prufe: note ? JSON.parse(note.description) : null,
          errors: (r.errors ?? []).map((e) => e.message).join('\n'),
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites) walk(suite);
  return out;
}

const verdictsOf = (rows) => Object.fromEntries(rows.map((r) => [r.title, r.prufe?.verdicts]).sort(([a], [b]) => a.localeCompare(b)));

let whole;

test('four workers: every test passes with its verdicts, in parallel, each worker its own browser and engine world', async () => {
  const run = await playwrightTest('whole');
  const rows = results(run.report);
  assert.equal(run.code, 0, `${rows.map((r) => `${r.title}: ${r.status}\n${r.errors}`).join('\n')}\n`
    + `(at most ${run.most} worker(s) had tests under way at once)\n${run.output.slice(-2000)}`);
  assert.equal(rows.length, TESTS, rows.map((r) => r.title).join(', '));
  for (const r of rows) {
    assert.equal(r.status, 'passed', `${r.title}: ${r.errors}`);
    assert.ok(r.prufe, `${r.title} noted where its engine ran`);
  }
  assert.deepEqual(rows.map((r) => r.prufe.verdicts.join(' · ')).sort(), [
    ...Array(6).fill('MATCH'),
    'MISMATCH, 2 undone',
    'MISMATCH, 2 undone',
  ].sort());

  // In parallel: two workers' tests were inside together (the rendezvous), and the report's
  // times of two tests of different workers overlap.
  const workers = new Set(rows.map((r) => r.worker));
  assert.ok(workers.size >= 2, `tests ran in ${workers.size} worker(s)`);
  assert.ok(run.most >= 2, `at most ${run.most} worker(s) inside together`);
  const overlapping = rows.some((a) => rows.some((b) => a.worker !== b.worker && a.start < b.end && b.start < a.end));
  assert.ok(overlapping, JSON.stringify(rows.map(({ title, worker, start, end }) => ({ title, worker, start, end }))));

  // Each worker its own browser: one browser process per worker, none shared between workers.
  const pidsOf = new Map();
  for (const r of rows) {
    assert.ok(Number.isInteger(r.prufe.browserPid), `${r.title}: browser pid ${r.prufe.browserPid}`);
    pidsOf.set(r.worker, new Set([...(pidsOf.get(r.worker) ?? []), r.prufe.browserPid]));
  }
  for (const [worker, pids] of pidsOf) assert.equal(pids.size, 1, `worker ${worker} ran browsers ${[...pids]}`);
  const pids = [...pidsOf.values()].map((s) => [...s][0]);
  assert.equal(new Set(pids).size, pidsOf.size, `workers ${[...pidsOf.keys()]} ran browsers ${pids}`);

  // Each test its own engine, in the isolated world of its own page: a distinct world, the
  // engine of this build there, nothing of it in the page's world.
  const worlds = rows.map((r) => r.prufe.engineWorld);
  assert.ok(worlds.every((w) => typeof w === 'string' && w.length > 0), worlds.join(', '));
  assert.equal(new Set(worlds).size, TESTS, worlds.join(', '));
  for (const r of rows) {
    assert.equal(r.prufe.engineVersion, crateVersion(), r.title);
    assert.equal(r.prufe.pageSees, 'undefined', r.title);
  }

  // Each test's trace records in its own directory, none overwritten by another test's.
  const traces = readdirSync(join(dir, 'whole'))
    .map((test) => join(dir, 'whole', test, 'prufe-traces'))
    .filter((traceDir) => existsSync(traceDir))
    .map((traceDir) => readdirSync(traceDir).filter((f) => f.endsWith('.json')).sort().join(' '));
  assert.deepEqual(traces.sort(), [...Array(6).fill('0001-click-match.json'), '0001-click-mismatch.json', '0001-click-mismatch.json'].sort());
  whole = rows;
});

test('two shards: every test exactly once between them, with the same verdicts', async () => {
  assert.ok(whole, 'the four-worker run failed, so there is nothing to compare the shards with');
  const shards = [];
  for (const shard of ['1/2', '2/2']) {
    // Each shard as a machine of two workers would run it (four tests, two browsers).
    const run = await playwrightTest(`shard-${shard.replace('/', '-of-')}`, [`--shard=${shard}`, '--workers=2']);
    const rows = results(run.report);
    assert.equal(run.code, 0, `shard ${shard}: ${rows.map((r) => `${r.title}: ${r.status}\n${r.errors}`).join('\n')}\n${run.output.slice(-2000)}`);
    assert.ok(rows.length > 0 && rows.length < TESTS, `shard ${shard} ran ${rows.length} tests`);
    for (const r of rows) assert.equal(r.status, 'passed', `shard ${shard}, ${r.title}: ${r.errors}`);
    shards.push(rows);
  }
  const titles = shards.flat().map((r) => r.title).sort();
  assert.deepEqual(titles, whole.map((r) => r.title).sort(), 'the shards together ran every test exactly once');
  assert.deepEqual(verdictsOf(shards.flat()), verdictsOf(whole));
  const worlds = shards.flat().map((r) => r.prufe.engineWorld);
  assert.equal(new Set([...worlds, ...whole.map((r) => r.prufe.engineWorld)]).size, 2 * TESTS, 'no engine world is met twice');
});
