import { serve } from '../support/env.mjs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
const server = await serve();
const t = Date.now();
const r = await promisify(execFile)('/work/main/target/debug/prufe', ['snapshot', server.url('/shop.html')], { timeout: 60000 }).catch(e => e);
console.log(Date.now() - t, r.stdout?.slice(0, 300), r.stderr);
await server.close();
