// Playwright Test with the system Chromium (no browser download) for the prufe fixture's
// specs; run by ../package-test-fixture.test.mjs with PRUFE_FIXTURES set to the fixture
// server's origin.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.mjs$/,
  reporter: 'list',
  outputDir: join(tmpdir(), 'prufe-playwright-test-results'),
  workers: 1,
  retries: 0,
  timeout: 60_000,
  use: {
    baseURL: process.env.PRUFE_FIXTURES,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.PRUFE_CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
