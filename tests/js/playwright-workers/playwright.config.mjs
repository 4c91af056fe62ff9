// Playwright Test with four workers, every test free to run in any of them, and the system
// Chromium (no browser download), for the prufe fixture at scale; run by
// ../package-workers.test.mjs with PRUFE_FIXTURES set to the fixture server's origin, whole
// and as `--shard=1/2` and `--shard=2/2`.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.mjs$/,
  tsconfig: './tsconfig.json',
  fullyParallel: true,
  workers: 4,
  reporter: 'list',
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
