#!/usr/bin/env node
// `make soak`: runs the browser suites of `make test` (the in-browser wasm tests, the harness's
// suites, the Node tests, the Python tests) N times one after another, under a background load
// of busy loops, and prints per test: runs, failures, the slowest time against the bound.
// A test that fails once in N is a broken test: its failure is reported with its message.
//
//   node scripts/soak.mjs [--runs 5] [--load 2] [--bound 120] [--suites wasm,harness,node,python]
//                         [--out bench/soak.md]
//
// --load starts that many busy loops for the whole soak (two on two cores: a load of 4 with
// the suites' own work); --bound is the time, in seconds, within which every test must end
// (a slower run counts as a failure); --out is where the report is written.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../tests/js/support/env.mjs';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    load: { type: 'string', default: '2' },
    bound: { type: 'string', default: '120' },
    suites: { type: 'string', default: 'wasm,harness,node,python' },
    out: { type: 'string', default: 'bench/soak.md' },
  },
});
const RUNS = Number(opts.runs);
const LOAD = Number(opts.load);
const BOUND_MS = Number(opts.bound) * 1000;
const SUITES = opts.suites.split(',').filter(Boolean);
for (const [name, n] of [['--runs', RUNS], ['--load', LOAD], ['--bound', BOUND_MS]]) {
  if (!Number.isInteger(n) || n < 0 || (name !== '--load' && n === 0)) {
    console.error(`${name} takes a whole number${name === '--load' ? '' : ' above 0'}`);
    process.exit(2);
  }
}
const KNOWN_SUITES = ['wasm', 'harness', 'node', 'python'];
const unknown = SUITES.filter((s) => !KNOWN_SUITES.includes(s));
if (unknown.length) {
  console.error(`unknown suite ${unknown.join(', ')}: the suites are ${KNOWN_SUITES.join(', ')}`);
  process.exit(2);
}

const CLI = join(ROOT, 'target', 'debug', 'prufe');
const work = mkdtempSync(join(tmpdir(), 'prufe-soak-'));

/** Runs a command to its end, collecting its output; never throws on a failing status. */
function run(cmd, args, { cwd = ROOT, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (status) => resolve({ status, out }));
  });
}

/** One test's outcome in one round. */
const result = (suite, name, passed, ms, message = '') => ({ suite, name, passed, ms, message });

// The suites, each a function returning the outcomes of its tests for one round.
const suites = {
  /** The in-browser wasm tests: libtest's lines, one time per test binary. */
  async wasm() {
    const started = Date.now();
    const { status, out } = await run('scripts/wasm-test.sh', []);
    const tests = [...out.matchAll(/^test (\S+) \.\.\. (ok|FAILED|ignored)/gm)]
      .filter((m) => m[2] !== 'ignored')
      .map((m) => result('wasm', m[1], m[2] === 'ok', null));
    if (status !== 0 && tests.every((t) => t.passed)) {
      tests.push(result('wasm', '(the suite itself)', false, Date.now() - started, out.slice(-2000)));
    }
    for (const t of tests.filter((t) => !t.passed)) {
      t.message ||= (out.split(`---- ${t.name} stdout ----`)[1] ?? '').slice(0, 1500);
    }
    return tests;
  },

  /** The harness's suites: each test binary run by itself, libtest's JSON with times. */
  async harness() {
    const built = execFileSync(
      'cargo', ['test', '-q', '-p', 'prufe-harness', '--no-run', '--message-format=json'],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    const binaries = built.split('\n').filter(Boolean).map((l) => JSON.parse(l))
      .filter((m) => m.reason === 'compiler-artifact' && m.profile?.test && m.executable)
      .map((m) => ({ name: m.target.name, path: m.executable }));
    const harnessDir = join(ROOT, 'harness');
    const tests = [];
    for (const b of binaries) {
      // Libtest's JSON lines and times are behind its unstable options on a stable toolchain.
      const { status, out } = await run(b.path, ['-Z', 'unstable-options', '--format', 'json', '--report-time'], {
        cwd: harnessDir,
        env: { RUSTC_BOOTSTRAP: '1', CARGO_MANIFEST_DIR: harnessDir },
      });
      let seen = 0;
      for (const line of out.split('\n')) {
        if (!line.startsWith('{')) continue;
        let e;
        try { e = JSON.parse(line); } catch { continue; }
        if (e.type !== 'test' || !['ok', 'failed', 'timeout'].includes(e.event)) continue;
        seen += 1;
        tests.push(result('harness', `${b.name}::${e.name}`, e.event === 'ok', Math.round((e.exec_time ?? 0) * 1000), e.stdout ?? ''));
      }
      if (status !== 0 && seen === 0) tests.push(result('harness', `${b.name} (the binary itself)`, false, null, out.slice(-2000)));
    }
    return tests;
  },

  /** The Node tests of `make test`, through the soak's own reporter. */
  async node() {
    const file = join(work, 'node.jsonl');
    // As `make test`: every Node test but the honest corpus's (`make corpus-test`).
    const files = readdirSync(join(ROOT, 'tests', 'js'))
      .filter((f) => f.endsWith('.test.mjs') && f !== 'corpus.test.mjs')
      .map((f) => join('tests', 'js', f));
    const { status, out } = await run('node', [
      '--test', '--test-concurrency=2',
      '--test-reporter', join(ROOT, 'scripts', 'soak-reporter.mjs'), '--test-reporter-destination', file,
      ...files, 'fixtures/pages.test.mjs', 'www/viewer/',
    ], { env: { PRUFE_CLI: CLI } });
    let lines = [];
    try { lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)); } catch { /* no report */ }
    const tests = lines.map((t) => result('node', `${t.file} › ${t.name}`, t.passed, Math.round(t.ms)));
    if (status !== 0 && tests.every((t) => t.passed)) tests.push(result('node', '(the suite itself)', false, null, out.slice(-2000)));
    return tests;
  },

  /** The Python tests of `make test`, under pytest, read from its JUnit report. */
  async python() {
    const xml = join(work, 'python.xml');
    const { status, out } = await run('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${xml}`, 'tests/python'], {
      env: { PRUFE_CLI: CLI, PRUFE_BROWSER_USE_PYTHON: join(ROOT, '.venv-browser-use', 'bin', 'python') },
    });
    // The standard library's XML parser reads the report.
    const read = `
import json, sys, xml.etree.ElementTree as ET
out = []
for case in ET.parse(sys.argv[1]).getroot().iter('testcase'):
    failed = case.find('failure') if case.find('failure') is not None else case.find('error')
    if case.find('skipped') is not None:
        continue
    out.append({'name': case.get('classname', '') + '::' + case.get('name', ''), 'passed': failed is None,
                'ms': round(float(case.get('time', '0')) * 1000), 'message': '' if failed is None else (failed.get('message') or '')[:1500]})
print(json.dumps(out))`;
    let cases = [];
    try { cases = JSON.parse(execFileSync('python3', ['-c', read, xml], { encoding: 'utf8' })); } catch { /* no report */ }
    const tests = cases.map((c) => result('python', c.name, c.passed, c.ms, c.message));
    if (status !== 0 && tests.every((t) => t.passed)) tests.push(result('python', '(the suite itself)', false, null, out.slice(-2000)));
    return tests;
  },
};

// The background load: busy loops, for the whole soak.
const loops = Array.from({ length: LOAD }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopLoad = () => { for (const l of loops) l.kill('SIGKILL'); };
process.on('exit', stopLoad);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { stopLoad(); process.exit(130); });

const started = Date.now();
const table = new Map(); // suite::name -> { suite, name, runs, failures, slowest, messages }
const rounds = [];
const loads = [];
for (let round = 1; round <= RUNS; round += 1) {
  for (const suite of SUITES) {
    const t0 = Date.now();
    const tests = await suites[suite]();
    const seconds = Math.round((Date.now() - t0) / 1000);
    loads.push(loadavg()[0]);
    let failed = 0;
    for (const t of tests) {
      const key = `${t.suite}::${t.name}`;
      const row = table.get(key) ?? { suite: t.suite, name: t.name, runs: 0, failures: 0, slowest: null, messages: [] };
      const over = t.ms !== null && t.ms > BOUND_MS;
      row.runs += 1;
      if (!t.passed || over) {
        row.failures += 1;
        failed += 1;
        row.messages.push(`round ${round}: ${over ? `took ${t.ms} ms, over the bound` : (t.message || 'failed').trim().split('\n').slice(0, 12).join('\n')}`);
      }
      if (t.ms !== null) row.slowest = Math.max(row.slowest ?? 0, t.ms);
      table.set(key, row);
    }
    rounds.push({ round, suite, tests: tests.length, failed, seconds });
    console.log(`round ${round}/${RUNS} ${suite}: ${tests.length} tests, ${failed} failed, ${seconds} s (load ${loadavg()[0].toFixed(1)})`);
  }
}
stopLoad();
rmSync(work, { recursive: true, force: true });

const rows = [...table.values()].sort((a, b) => b.failures - a.failures || (b.slowest ?? 0) - (a.slowest ?? 0));
const failures = rows.reduce((n, r) => n + r.failures, 0);
const minutes = ((Date.now() - started) / 60000).toFixed(1);
const meanLoad = loads.length ? (loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1) : '0';
const fmt = (ms) => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);
const report = [
  '# Soak: the browser suites, again and again, under load',
  '',
  `\`make soak\` (\`node scripts/soak.mjs --runs ${RUNS} --load ${LOAD} --bound ${BOUND_MS / 1000} --suites ${SUITES.join(',')}\`): ${RUNS} round${RUNS === 1 ? '' : 's'} of the suites one after another, ` +
    `with ${LOAD} busy loops beside them on ${cpus().length} cores (mean load ${meanLoad} at the end of each suite), in ${minutes} minutes. ` +
    `Every test must pass every round within ${BOUND_MS / 1000} s. The wasm tests' times are their binary's, not each test's.`,
  '',
  `**${rows.length} tests, ${rows.reduce((n, r) => n + r.runs, 0)} runs, ${failures} failures.**`,
  '',
  '| round | suite | tests | failed | seconds |',
  '|---|---|---|---|---|',
  ...rounds.map((r) => `| ${r.round} | ${r.suite} | ${r.tests} | ${r.failed} | ${r.seconds} |`),
  '',
  '## Per test (failures first, then the slowest)',
  '',
  '| suite | test | runs | failures | slowest / bound |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.suite} | ${r.name.replaceAll('|', '\\|')} | ${r.runs} | ${r.failures} | ${fmt(r.slowest)} / ${BOUND_MS / 1000} s |`),
  '',
  ...(failures
    ? ['## Failures', '', ...rows.filter((r) => r.failures).flatMap((r) => [`### ${r.suite}: ${r.name}`, '', '```', ...r.messages, '```', ''])]
    : []),
].join('\n');
writeFileSync(join(ROOT, opts.out), `${report}\n`);
console.log(`${rows.length} tests, ${failures} failures in ${minutes} min; report in ${opts.out}`);
process.exit(failures ? 1 : 0);
