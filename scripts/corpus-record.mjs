#!/usr/bin/env node
// Packs the machine states kept by a run of the honest corpus
// (`CORPUS_TAP=DIR node scripts/corpus.mjs`) into fixtures/corpus/recorded.json.gz: for every
// run, its id, whether it is honest or a fault, and the machine's state at its first
// judgement. `cargo test -p prufe --test corpus_recorded` judges them all again with the
// checkout's judge, in seconds, inside `make test`.
//
//   node scripts/corpus-record.mjs DIR [--add]
//
// --add keeps the runs already recorded and puts DIR's in, replacing those of the same id (a
// part of the corpus run again: `--only ionic.`).

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ROOT } from '../tests/js/support/env.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/corpus-record.mjs DIR [--add] (a directory CORPUS_TAP wrote)');
  process.exit(2);
}
const runs = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
  const tapped = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  // A run refused before any judgement (a target not found) has no state to judge again.
  if (!tapped.states?.length) continue;
  runs.push({ id: tapped.id, kind: tapped.kind, state: tapped.states[0] });
}
const out = join(ROOT, 'fixtures', 'corpus', 'recorded.json.gz');
if (process.argv.includes('--add')) {
  const fresh = new Set(runs.map((r) => r.id));
  const kept = JSON.parse(gunzipSync(readFileSync(out)).toString('utf8')).filter((r) => !fresh.has(r.id));
  runs.push(...kept);
  runs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
const packed = gzipSync(JSON.stringify(runs), { level: 9 });
writeFileSync(out, packed);
console.log(`${runs.length} runs, ${(packed.length / 1e6).toFixed(1)} MB: ${out}`);
