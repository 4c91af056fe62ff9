// Copies what the package ships from the engine's build into node/dist/: the in-page bundle
// (js/dist/prufe.js) and the work watch run beside it (js/src/work.js), the machine module
// (js/dist/prufe-run.mjs and its types) and the wire decoder (js/wire.mjs). Run by `make node`
// after `make bundle`; node/dist/ is not committed.

import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const dist = join(here, 'dist');

const FILES = [
  ['js/dist/prufe.js', 'prufe.js'],
  ['js/src/work.js', 'prufe-work.js'],
  ['js/dist/prufe-run.mjs', 'prufe-run.mjs'],
  ['js/wire.mjs', 'wire.mjs'],
  ['js/prufe.d.ts', 'prufe.d.ts'],
  ['js/prufe-types.d.ts', 'prufe-types.d.ts'],
  ['js/prufe-run.d.ts', 'prufe-run.d.ts'],
  ['js/prufe-run-types.d.ts', 'prufe-run-types.d.ts'],
];

mkdirSync(dist, { recursive: true });
for (const [from, to] of FILES) {
  const source = join(root, from);
  try {
    statSync(source);
  } catch {
    console.error(`node/build.mjs: ${from} is missing: run \`make bundle\` first`);
    process.exit(1);
  }
  copyFileSync(source, join(dist, to));
}
console.error(`node/dist: ${FILES.map(([, to]) => to).join(', ')}`);
