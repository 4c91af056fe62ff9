// The scale bench's Playwright Test surface (scripts/scale.mjs, `--surfaces pwtest`): one spec
// that scale.mjs runs with `--repeat-each=N --workers=N`, every copy in a worker of its own,
// with the system Chromium (no browser download). PRUFE_FIXTURES is the bench's fixture server.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.mjs$/,
  tsconfig: './tsconfig.json',
  fullyParallel: true,
  reporter: 'list',
  retries: 0,
  timeout: 300_000,
  use: {
    baseURL: process.env.PRUFE_FIXTURES,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.PRUFE_CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
