// `npm pack` of node/ gives a tarball that installs into an empty project (offline, no
// scripts) and runs a verified click there, with playwright-core as the project's own peer.

import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { CHROMIUM, CHROMIUM_FLAGS, ROOT, serve } from './support/env.mjs';

const run = promisify(execFile);
let server;
let dir;

before(async () => {
  server = await serve();
  dir = mkdtempSync(join(tmpdir(), 'prufe-pack-'));
});
after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const CONSUMER = `
import { chromium } from 'playwright-core';
import { prufe, VerificationFailed } from 'prufe/playwright';
const [url, executablePath, ...args] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath, args });
try {
  const page = await browser.newPage();
  await page.goto(url);
  const v = await prufe(page);
  const r = await v.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'add Shirt M to the cart' });
  console.log(JSON.stringify({ verdict: r.verdict, target: r.target, typeofPrufe: await page.evaluate(() => typeof window.prufe), errors: typeof VerificationFailed }));
} finally {
  await browser.close();
}
`;

test('npm pack, install the tarball into a scratch project, run a verified click there', async () => {
  const npm = { cwd: dir, env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1', npm_config_update_notifier: 'false' } };
  const { stdout } = await run('npm', ['pack', join(ROOT, 'node'), '--pack-destination', dir, '--json'], npm);
  const [packed] = JSON.parse(stdout);
  const tarball = join(dir, packed.filename);
  const files = packed.files.map((f) => f.path).sort();
  for (const f of ['dist/prufe.js', 'dist/prufe-run.mjs', 'dist/wire.mjs', 'dist/prufe.d.ts', 'dist/prufe-types.d.ts', 'dist/prufe-run.d.ts', 'dist/prufe-run-types.d.ts', 'src/index.js', 'src/playwright.js', 'src/puppeteer.js', 'src/test.js', 'types/index.d.ts', 'package.json']) {
    assert.ok(files.includes(f), `${f} is packed (${files.join(', ')})`);
  }
  assert.ok(!files.some((f) => f.startsWith('test') || f.endsWith('build.mjs')), files.join(', '));
  assert.ok(statSync(tarball).size < 2 * 1024 * 1024, `tarball of ${statSync(tarball).size} bytes`);

  const project = join(dir, 'project');
  await run('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { ...npm, cwd: project });
  assert.deepEqual(readdirSync(join(project, 'node_modules', 'prufe')).sort(), ['dist', 'package.json', 'src', 'types']);
  // The peer the project brings: this repository's playwright-core.
  symlinkSync(join(ROOT, 'node_modules', 'playwright-core'), join(project, 'node_modules', 'playwright-core'), 'dir');
  writeFileSync(join(project, 'click.mjs'), CONSUMER);
  const out = await new Promise((done, fail) => {
    const child = spawn(process.execPath, ['click.mjs', server.url('/shop.html'), CHROMIUM, ...CHROMIUM_FLAGS], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c) => { text += c; });
    child.stderr.on('data', (c) => { text += c; });
    child.on('close', (code) => (code === 0 ? done(text) : fail(new Error(`exit ${code}: ${text}`))));
  });
  assert.deepEqual(JSON.parse(out.trim().split('\n').pop()), {
    verdict: 'MATCH', target: 'button[Add Shirt M] in main/list:catalogue', typeofPrufe: 'undefined', errors: 'function',
  });
});
