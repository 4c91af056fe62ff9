import { serve } from '../support/env.mjs';
import { SCENARIOS, liveCli } from '../support/scenarios.mjs';
const server = await serve();
const out = {};
for (const name of process.argv.slice(2)) out[name] = await liveCli('/work/main/target/debug/prufe', server.url(SCENARIOS[name].page), SCENARIOS[name].steps);
console.log(JSON.stringify(out, null, 1));
await server.close();
