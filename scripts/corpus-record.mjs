#!/usr/bin/env node
// Packs the machine states kept by a run of the honest corpus
// (`CORPUS_TAP=DIR node scripts/corpus.mjs`) into fixtures/corpus/recorded.json.gz: for every
// run, its id, whether it is honest or a fault, and the machine's state at its first
// judgement. `cargo test -p prufe --test corpus_recorded` judges them all again with the
// checkout's judge, in seconds, inside `make test`.
//
//   node scripts/corpus-record.mjs DIR

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../tests/js/support/env.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/corpus-record.mjs DIR (a directory CORPUS_TAP wrote)');
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
const packed = gzipSync(JSON.stringify(runs), { level: 9 });
writeFileSync(out, packed);
console.log(`${runs.length} runs, ${(packed.length / 1e6).toFixed(1)} MB: ${out}`);
