// The prufe/test fixture under @playwright/test with /usr/bin/chromium: the honest spec
// passes, the recycled list's fails with a readable report (its verdict, reason, attempts and
// what was observed), and no browser is downloaded.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, serve } from './support/env.mjs';

let server;
before(async () => { server = await serve(); });
after(async () => { await server?.close(); });

/** `npx playwright test` on the specs of playwright-test/, asynchronously (the server is ours). */
function playwrightTest(args) {
  return new Promise((done) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'playwright'), ['test', '-c', join(ROOT, 'tests/js/playwright-test/playwright.config.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, PRUFE_FIXTURES: server.origin, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', CI: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('close', (code) => done({ code, output }));
  });
}

test('a Playwright Test run: the honest specs pass, the recycled list fails with the report', async () => {
  const { code, output } = await playwrightTest([]);
  assert.equal(code, 1, output);
  assert.match(output, /2 passed/, output);
  assert.match(output, /1 failed/, output);
  assert.match(output, /recycled\.spec\.mjs.*add a shirt on the recycled list/, output);
  assert.match(output, /VerificationFailed: click on button\[Add Shirt M\] in list: MISMATCH — the effect belongs to button\[Add Trousers L\] in list/, output);
  assert.match(output, /Intent: {4}add Shirt M to the cart/, output);
  assert.match(output, /Attempts: {2}2, 2 undone/, output);
  // The report points at the spec's own line, not into the package.
  assert.match(output, />\s+8 \|\s+await prufe\.click\(/, output);
  assert.match(output, /appeared listitem\[Trousers L Remove Trousers L\] in cart\/list:cart-items/, output);
});
