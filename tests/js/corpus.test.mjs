// The honest corpus (fixtures/corpus) under the npm package with Playwright on
// /usr/bin/chromium. First, without prufe: every page renders the widgets its actions target
// (Playwright finds each by role and name). Then every run of the corpus: a fault must not be
// MATCH; an honest run must be MATCH unless fixtures/corpus/known-refusals.json lists it, and
// a listed run that is MATCH now fails too, so the list only ever shrinks (rewrite it with
// `node scripts/corpus.mjs --write-known`).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ACTIONS, PAGES, corpusRuns, knownRefusals, locate, openCorpus, passed, refusal, runAll } from './support/corpus.mjs';

let corpus;

before(async () => {
  corpus = await openCorpus();
});

after(async () => {
  await corpus?.close();
});

describe('the corpus pages, without prufe', () => {
  for (const [name, { file }] of Object.entries(PAGES)) {
    test(`${file} renders the widgets its actions start on`, async () => {
      const context = await corpus.browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(corpus.url(name));
        const targets = new Map();
        for (const entry of ACTIONS.filter((e) => e.page === name && !e.setup && e.action.target)) {
          targets.set(`${entry.action.target.role}[${entry.action.target.name}]`, entry);
        }
        assert.ok(targets.size > 0, `no action of ${file} starts on the page as loaded`);
        for (const [shown, entry] of targets) {
          const state = entry.action.kind === 'upload' ? 'attached' : 'visible';
          // A file input has no role in Playwright's tree; its label finds it.
          const el = entry.action.kind === 'upload'
            ? locate(page, entry.action.target).or(page.getByLabel(entry.action.target.name, { exact: true }))
            : locate(page, entry.action.target);
          await el.first().waitFor({ state, timeout: 15_000 })
            .catch(() => assert.fail(`${file}: no ${state} ${shown} (${entry.id})`));
        }
        assert.deepEqual(errors, [], `${file} threw`);
      } finally {
        await context.close();
      }
    });
  }
});

/**
 * An honest run on a widget that turns by itself (`PAGES[page].turning`) that the judge held
 * AMBIGUOUS because the page turned the position it stepped too, inside the step (seen
 * turning by itself, before the action or in the watch after it): one step cannot be told from
 * the page's own turns then, and saying so is the judge's honest answer, not a refusal of the
 * step. A turn that lands outside the step leaves the run MATCH.
 */
function turnedInside(run, o) {
  return (PAGES[run.entry.page].turning ?? []).includes(run.entry.widget)
    && o.verdict === 'AMBIGUOUS' && /the page turns it by itself too/.test(o.reason ?? '');
}

describe('the corpus under prufe', () => {
  const known = knownRefusals();
  const all = corpusRuns();
  for (const [name, { file, library }] of Object.entries(PAGES)) {
    const runs = all.filter((r) => r.entry.page === name);
    const faults = runs.filter((r) => r.kind === 'fault').length;
    test(`${library} (${file}): ${runs.length - faults} honest runs MATCH but the known refusals, ${faults} faults refused`, { timeout: 45 * 60_000 }, async (t) => {
      const outcomes = await runAll(corpus, runs);
      const problems = [];
      for (const run of runs) {
        const o = outcomes.get(run.id);
        const said = `${o.verdict ?? o.code} — ${o.reason}`;
        if (run.kind === 'fault') {
          if (!passed(run, o)) problems.push(`${run.id}: the fault (${run.entry.fault.kind} on ${run.entry.fault.on}) was MATCH: ${o.reason}`);
        } else if (passed(run, o)) {
          if (known[run.id]) problems.push(`${run.id} is MATCH now: remove it from fixtures/corpus/known-refusals.json`);
        } else if (turnedInside(run, o)) {
          t.diagnostic(`${run.id}: the widget's own turn landed inside the step: ${said}`);
        } else if (!known[run.id]) {
          problems.push(`${run.id}${run.intent ? ` “${run.intent}”` : ''}: ${said} (not in fixtures/corpus/known-refusals.json)`);
        }
      }
      for (const id of Object.keys(known)) {
        if (id.startsWith(`${name}.`) && !runs.some((r) => r.id === id)) problems.push(`${id} is in known-refusals.json but the corpus has no such run`);
      }
      const refused = runs.filter((r) => r.kind === 'honest' && !passed(r, outcomes.get(r.id)));
      const verdicts = {};
      for (const r of refused) verdicts[refusal(outcomes.get(r.id)).verdict] = (verdicts[refusal(outcomes.get(r.id)).verdict] ?? 0) + 1;
      t.diagnostic(`${runs.length - faults - refused.length}/${runs.length - faults} honest runs MATCH; refused: ${JSON.stringify(verdicts)}`);
      assert.deepEqual(problems, []);
    });
  }
});
