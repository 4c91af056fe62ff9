#!/usr/bin/env node
// `make bench`: the lines of the two package drivers, `node/src` and `python/src/prufe`, next
// to what they held when the one driver core was asked for (2,851 and 3,081: Python without
// its ActionPrufe drop-in `compat/`, which is printed apart). Every decision belongs to the
// machine (`src/core/run`); these lines only carry its needs to the browser and back, so
// they should shrink. A file generated from another (its first line says so: the sync API,
// written by scripts/sync_api.py from the async one) is printed apart, not counted. Writes
// nothing.
//
//   node scripts/driver-lines.mjs

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const SOURCE = /\.(js|mjs|cjs|py)$/;
/** What each counted when the one driver core was asked for. */
const BEFORE = { 'node/src': 2851, 'python/src/prufe': 3081, 'python/src/prufe/compat': 1211 };

/** Every source file under `dir`, with its number of lines. */
function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // The engine's files copied into the Python package (`make python`) are not the driver.
    if (name === '__pycache__' || name === 'node_modules' || path === join(ROOT, 'python', 'src', 'prufe', 'engine')) continue;
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (SOURCE.test(name)) {
      const text = readFileSync(path, 'utf8');
      const generated = /^# Generated (from \S+ by \S+?):/.exec(text)?.[1] ?? null;
      out.push({ path: relative(ROOT, path), lines: text.split('\n').length - 1, generated });
    }
  }
  return out;
}

const sum = (list) => list.reduce((total, f) => total + f.lines, 0);
const all = { node: files(join(ROOT, 'node', 'src')), python: files(join(ROOT, 'python', 'src', 'prufe')) };
const node = all.node.filter((f) => !f.generated);
const python = all.python.filter((f) => !f.generated);
const generated = [...all.node, ...all.python].filter((f) => f.generated);
const compat = python.filter((f) => f.path.startsWith('python/src/prufe/compat/'));
const counts = {
  'node/src': sum(node),
  'python/src/prufe': sum(python) - sum(compat),
  'python/src/prufe/compat': sum(compat),
};
for (const [dir, lines] of Object.entries(counts)) {
  const what = dir.endsWith('compat') ? 'the ActionPrufe drop-in' : 'driver';
  const change = lines - BEFORE[dir];
  console.log(`driver lines: ${dir.padEnd(24)} ${String(lines).padStart(5)} (${what}; ${BEFORE[dir]} when the one driver core was asked for, ${change >= 0 ? '+' : ''}${change})`);
}
for (const f of generated) console.log(`driver lines: ${f.path.padEnd(24)} ${String(f.lines).padStart(5)} (generated ${f.generated}; not counted)`);
