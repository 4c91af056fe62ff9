import { spawn } from 'node:child_process';
import { serve, ROOT } from '../support/env.mjs';
const server = await serve();
const child = spawn('node_modules/.bin/playwright', ['test', '-c', 'tests/js/playwright-test/playwright.config.mjs'], { cwd: ROOT, env: { ...process.env, PRUFE_FIXTURES: server.origin, FORCE_COLOR: '0' }, stdio: 'inherit' });
child.on('close', async () => { await server.close(); });
