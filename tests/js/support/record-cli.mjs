// Records what a live `prufe run` decides on each scenario into cli-records.json, the
// expectations every package's parity test holds its records to:
//   PRUFE_CLI=target/debug/prufe node tests/js/support/record-cli.mjs
// (tests/python/support.py does the same for the Python package's copy.)
import { writeFileSync } from 'node:fs';
import { SCENARIOS, liveCli } from './scenarios.mjs';
import { serve } from './env.mjs';

const cli = process.env.PRUFE_CLI;
if (!cli) {
  console.error('set PRUFE_CLI to a prufe binary');
  process.exit(2);
}
const server = await serve();
try {
  const names = Object.keys(SCENARIOS);
  const out = {};
  // Three at a time: each run starts a browser of its own.
  for (let i = 0; i < names.length; i += 3) {
    await Promise.all(names.slice(i, i + 3).map(async (name) => {
      out[name] = await liveCli(cli, server.url(SCENARIOS[name].page, SCENARIOS[name].host), SCENARIOS[name].steps);
    }));
  }
  const ordered = Object.fromEntries(names.map((n) => [n, out[n]]));
  const file = new URL('./cli-records.json', import.meta.url);
  writeFileSync(file, JSON.stringify(ordered, null, 2) + '\n');
  console.log(`wrote ${file.pathname}`);
} finally {
  await server.close();
}
