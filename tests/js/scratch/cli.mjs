import { serve } from '../support/env.mjs';
import { SCENARIOS, liveCli } from '../support/scenarios.mjs';
const server = await serve();
const out = {};
for (const [name, s] of Object.entries(SCENARIOS)) {
  const t = Date.now();
  out[name] = await liveCli('/work/main/target/debug/prufe', server.url(s.page), s.steps);
  console.error(name, Date.now() - t);
}
console.log(JSON.stringify(out, null, 1));
await server.close();
