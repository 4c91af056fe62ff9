#!/usr/bin/env node
// The honest corpus (fixtures/corpus): runs every (action × intent) and every injected fault
// with the npm package under Playwright, two pages at a time, and prints per library and per
// widget the honest runs that were MATCH and the faults that were not, then every honest run
// that was not MATCH (verdict and reason) and every fault that was, and the refusals grouped
// by verdict and reason. Writes bench/corpus.md.
//
//   node scripts/corpus.mjs [--only PREFIX] [--write-known] [--out bench/corpus.md]
//                           [--quick-ms N] [--save FILE] [--from FILE [--note TEXT]] [--ids FILE]
//
// --quick-ms verifies with the shorter quiet window of N ms (the verifier's `quickMs`; left out,
// the machine's default; 0, the full window: `make bench` writes bench/corpus.md with 0 and
// bench/corpus-quick.md with 50).
// --only runs the entries whose id starts with PREFIX (`rac.`, `mui.dialog`), prints, and
// writes nothing. --write-known records every honest run that was not MATCH in
// fixtures/corpus/known-refusals.json, the list tests/js/corpus.test.mjs allows. --save
// keeps every run's outcome as JSON; --from reports saved outcomes without running anything;
// --ids runs only the runs of a JSON list of run ids (to run again those that changed).

import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { KNOWN, PAGES, corpusRuns, openCorpus, passed, refusal, runAll } from '../tests/js/support/corpus.mjs';
import { ROOT } from '../tests/js/support/env.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

const only = option('only', null);
const out = join(ROOT, option('out', 'bench/corpus.md'));
const writeKnown = process.argv.includes('--write-known');
const quickOption = option('quick-ms', null);
const quickMs = quickOption === null ? null : Number(quickOption);
if (quickMs !== null && (!Number.isInteger(quickMs) || quickMs < 0)) {
  console.error('--quick-ms takes a whole number of milliseconds');
  process.exit(2);
}
if (writeKnown && (option('only', null) || option('ids', null))) {
  console.error('--write-known records the whole corpus: it does not go with --only or --ids');
  process.exit(2);
}
const ids = option('ids', null);
const chosen = ids ? new Set(JSON.parse(readFileSync(ids, 'utf8'))) : null;
const runs = corpusRuns().filter((r) => (!only || r.entry.id.startsWith(only)) && (!chosen || chosen.has(r.id)));

/** Which engine the package runs: a digest of node/dist/prufe.js and when it was built. */
const engine = () => {
  const file = join(ROOT, 'node', 'dist', 'prufe.js');
  const digest = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
  return `${digest} (built ${statSync(file).mtime.toISOString().slice(0, 16)}Z)`;
};
const engineBefore = engine();
const from = option('from', null);
const save = option('save', null);
const started = Date.now();
let done = 0;
let outcomes;
if (from) {
  outcomes = new Map(Object.entries(JSON.parse(readFileSync(from, 'utf8'))));
} else {
  const corpus = await openCorpus();
  try {
    outcomes = await runAll(corpus, runs, {
      options: quickMs === null ? {} : { quickMs },
      onResult(run, o) {
        done += 1;
        const mark = passed(run, o) ? 'ok ' : 'NO ';
        process.stderr.write(`${String(done).padStart(4)}/${runs.length} ${mark} ${run.id}: ${o.verdict ?? o.code} (${o.ms} ms)${passed(run, o) ? '' : ` — ${o.reason}`}\n`);
      },
    });
  } finally {
    await corpus.close();
  }
  if (save) writeFileSync(save, JSON.stringify(Object.fromEntries(outcomes), null, 1));
}
const seconds = from ? Math.round([...outcomes.values()].reduce((a, o) => a + o.ms, 0) / 2000) : Math.round((Date.now() - started) / 1000);

/** Tallies of runs grouped by `key`: honest passed/total, faults caught/total. */
function tally(key) {
  const rows = new Map();
  for (const run of runs) {
    const k = key(run);
    if (!rows.has(k)) rows.set(k, { honest: 0, match: 0, faults: 0, caught: 0, actions: new Set() });
    const row = rows.get(k);
    const ok = passed(run, outcomes.get(run.id));
    if (run.kind === 'honest') {
      row.honest += 1;
      row.actions.add(run.entry.id);
      if (ok) row.match += 1;
    } else {
      row.faults += 1;
      if (ok) row.caught += 1;
    }
  }
  return rows;
}

const engineAfter = engine();
const median = (xs) => (xs.length ? xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] : 0);
/** The median of one phase of the runs, when (nearly) every outcome recorded its phases. */
const phaseMedian = (name) => {
  const xs = [...outcomes.values()].map((o) => o.phases?.[name]).filter((x) => x !== undefined);
  return xs.length >= 0.9 * outcomes.size ? median(xs) : 0;
};
const pct = (a, b) => (b ? `${Math.round((100 * a) / b)} %` : '–');
const lines = [];
const say = (s = '') => lines.push(s);
const table = (title, rows) => {
  say(`| ${title} | actions | honest runs MATCH | rate | faults caught | rate |`);
  say('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [k, r] of [...rows].sort()) say(`| ${k} | ${r.actions.size} | ${r.match}/${r.honest} | ${pct(r.match, r.honest)} | ${r.caught}/${r.faults} | ${pct(r.caught, r.faults)} |`);
  say();
};

const honest = runs.filter((r) => r.kind === 'honest');
const faultRuns = runs.filter((r) => r.kind === 'fault');
const actions = new Set(honest.map((r) => r.entry.id));
const matched = honest.filter((r) => passed(r, outcomes.get(r.id))).length;
const caught = faultRuns.filter((r) => passed(r, outcomes.get(r.id))).length;

say('# Honest corpus');
say();
say('`node scripts/corpus.mjs` (also run by `make bench`): actions on component libraries\' own widgets');
say('(fixtures/corpus, described in its README.md), each run without an intent and with each of its');
say('English, Spanish and German sentences, verified by the npm package under Playwright with the');
if (quickMs !== null) {
  say(`default policy (ambiguous: reject, no judge) but the quiet window after an effect \`quickMs: ${quickMs}\`${quickMs === 0 ? ' (always the full window)' : ''}; and`);
  say('faults injected into the same pages, which must not be MATCH.');
} else {
  say('default policy (ambiguous: reject, no judge); and faults injected into the same pages, which');
  say('must not be MATCH.');
}
say();
const note = option('note', null);
if (from) say(`Outcomes of earlier runs (${note ?? relative(ROOT, from)}); node/dist/prufe.js is now ${engineAfter}.`);
else if (engineBefore === engineAfter) say(`Engine: node/dist/prufe.js ${engineBefore}.`);
else say(`Engine: node/dist/prufe.js changed during the run, from ${engineBefore} to ${engineAfter}: the figures mix both.`);
say();
say(`${actions.size} actions, ${honest.length} honest runs: **${matched}/${honest.length} MATCH (${pct(matched, honest.length)})**. ` +
  `${faultRuns.length} fault runs: **${caught}/${faultRuns.length} caught (${pct(caught, faultRuns.length)})**. ` +
  (from ? `About ${seconds} s of runs, two at a time (saved outcomes); ` : `${seconds} s on ${cpus().length} cores, two runs at a time (load ${loadavg()[0].toFixed(1)} at the end); `) +
  `a run's median: ${median([...outcomes.values()].map((o) => o.ms))} ms` +
  (phaseMedian('step') ? `, of which loading the page ${phaseMedian('load')} ms, the setup ${phaseMedian('setup')} ms, the verified step ${phaseMedian('step')} ms.` : '.'));
say();
say('## By library');
say();
table('library', tally((r) => PAGES[r.entry.page].library));
say('## By widget');
say();
table('widget', tally((r) => r.entry.widget));
say('## By intent language');
say();
table('intent', tally((r) => (r.kind === 'fault' ? 'fault' : r.lang)));

/**
 * A reason reduced to its kind, to group refusals: the evidence it quotes (what changed,
 * appeared or disappeared), quoted text, element names and numbers masked.
 */
const pattern = (reason) => String(reason)
  .replace(/\b(changed|appeared|disappeared) (text '[^']*'|[a-z]+\[[^\]]*\])[^,;()]*/g, '$1 …')
  .replace(/\((changed|appeared|disappeared) [^()]*\)/g, '(…)')
  .replace(/ in ((region|dialog|alertdialog|main|navigation|search|banner)\[[^\]]*\]|list:)[^ ,;:()]*/g, '')
  .replace(/(^|[\s(])'[^']*'/g, "$1'…'")
  .replace(/"[^"]*"/g, '"…"')
  .replace(/\b[a-z]+\[[^\]]*\]/g, 'ROLE[…]')
  .replace(/#[\w-]+/g, '#…')
  .replace(/\(e\d+-\w+\)/g, '(ref)')
  .replace(/\d+(\.\d+)?/g, 'N');

const refused = honest.filter((r) => !passed(r, outcomes.get(r.id)));
const classes = new Map();
for (const r of refused) {
  const o = refusal(outcomes.get(r.id));
  const k = `${o.verdict} — ${pattern(o.reason)}`;
  if (!classes.has(k)) classes.set(k, { n: 0, widgets: new Set(), example: r.id });
  classes.get(k).n += 1;
  classes.get(k).widgets.add(`${r.entry.page}.${r.entry.widget}`);
}
say('## Refusals of honest runs, by kind');
say();
say('Verdict (or error code) and reason, with quoted text, names and numbers masked.');
say();
say('| runs | verdict — reason | widgets | e.g. |');
say('| ---: | --- | --- | --- |');
for (const [k, c] of [...classes].sort((a, b) => b[1].n - a[1].n)) {
  say(`| ${c.n} | ${k.replaceAll('|', '\\|')} | ${[...c.widgets].join(', ')} | \`${c.example}\` |`);
}
say();
say('## Honest runs that were not MATCH');
say();
for (const r of refused) {
  const o = refusal(outcomes.get(r.id));
  say(`- \`${r.id}\`${r.intent ? ` “${r.intent}”` : ''}: ${o.verdict} — ${o.reason}`);
}
say();
/** The honest run of a fault's step: same page, setup and step, the same intent (else none). */
const counterpart = (fault) => {
  const same = (e) => e.page === fault.entry.page && JSON.stringify(e.action) === JSON.stringify(fault.entry.action) &&
    JSON.stringify(e.setup ?? []) === JSON.stringify(fault.entry.setup ?? []);
  const runsOf = honest.filter((r) => same(r.entry));
  return runsOf.find((r) => r.intent === fault.intent) ?? runsOf.find((r) => r.intent === null) ?? null;
};
say('## Faults');
say();
say('A fault caught where the same step is refused on the honest page proves little: the last column says');
say('whether the honest run of the same step and intent was MATCH.');
say();
say('| fault | kind on | verdict | honest run of the same step |');
say('| --- | --- | --- | --- |');
for (const r of faultRuns) {
  const o = outcomes.get(r.id);
  const h = counterpart(r);
  const ho = h && outcomes.get(h.id);
  say(`| \`${r.id}\` | ${r.entry.fault.kind} on ${r.entry.fault.on} | ${o.verdict ?? o.code} | ${h ? `\`${h.id}\`: ${ho.verdict ?? ho.code}` : '–'} |`);
}
const meaningful = faultRuns.filter((r) => { const h = counterpart(r); return h && passed(h, outcomes.get(h.id)); });
say();
say(`Faults whose honest step is MATCH: ${meaningful.filter((r) => passed(r, outcomes.get(r.id))).length}/${meaningful.length} caught.`);
say();
say('## Faults that were MATCH');
say();
const missed = faultRuns.filter((r) => !passed(r, outcomes.get(r.id)));
if (missed.length === 0) say('None.');
for (const r of missed) say(`- \`${r.id}\` (${r.entry.fault.kind} on ${r.entry.fault.on}) “${r.intent}”: ${outcomes.get(r.id).reason}`);
say();

const report = lines.join('\n');
process.stdout.write(`${report}\n`);
if (!only && !ids) {
  writeFileSync(out, report);
  process.stderr.write(`wrote ${relative(ROOT, out)}\n`);
}
if (writeKnown) {
  const known = {};
  for (const r of refused) known[r.id] = refusal(outcomes.get(r.id));
  writeFileSync(KNOWN, `${JSON.stringify(known, null, 2)}\n`);
  process.stderr.write(`wrote ${relative(ROOT, KNOWN)} (${refused.length} runs)\n`);
}
