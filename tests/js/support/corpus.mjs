// The honest corpus's runner, shared by tests/js/corpus.test.mjs and scripts/corpus.mjs: every
// (action × intent) of fixtures/corpus/actions.mjs and every injected fault is one run, on a
// fresh page of one Chromium, its setup done with plain Playwright and its step verified by
// the npm package (node/src/playwright.js) with the default policy (ambiguous: 'reject', no
// judge). A run's outcome is its verdict and reason as the package reports them.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { prufe } from '../../../node/src/playwright.js';
import { ACTIONS, FAULTS, PAGES } from '../../../fixtures/corpus/actions.mjs';
import { CHROMIUM, CHROMIUM_FLAGS, FIXTURES, ROOT, serve } from './env.mjs';

export const CORPUS = join(FIXTURES, 'corpus');
export const KNOWN = join(CORPUS, 'known-refusals.json');
export { ACTIONS, FAULTS, PAGES };

/** The longest one run may take, setup included, before it counts as an error. */
const RUN_BUDGET_MS = 40_000;
const LANGS = ['en', 'es', 'de'];

/**
 * Every run of the corpus: each honest action without an intent and with each of its
 * sentences, then each fault.
 * @returns {{ id: string, kind: 'honest' | 'fault', entry: any, intent: string | null, lang: string }[]}
 */
export function corpusRuns() {
  const runs = [];
  for (const entry of ACTIONS) {
    runs.push({ id: `${entry.id}@none`, kind: 'honest', entry, intent: null, lang: 'none' });
    for (const lang of LANGS) {
      (entry.intents[lang] ?? []).forEach((intent, i) => {
        runs.push({ id: `${entry.id}@${lang}${i + 1}`, kind: 'honest', entry, intent, lang });
      });
    }
  }
  for (const entry of FAULTS) runs.push({ id: entry.id, kind: 'fault', entry, intent: entry.intent ?? null, lang: entry.intent ? 'en' : 'none' });
  return runs;
}

/** The runs of `fixtures/corpus/known-refusals.json`: id → { verdict, reason }. */
export function knownRefusals() {
  try {
    return JSON.parse(readFileSync(KNOWN, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * One Chromium and the fixture server; `close()` ends both. The bundles of the pages (up to a
 * megabyte each) may be cached, so a fresh page of a context that loaded one before does not
 * parse it again; the pages themselves are never cached.
 */
export async function openCorpus() {
  const headers = {};
  for (const file of readdirSync(join(CORPUS, 'dist'))) headers[`/corpus/dist/${file}`] = { 'cache-control': 'max-age=3600' };
  const server = await serve({ headers });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  return {
    browser,
    server,
    url: (page, fault) => server.url(`/corpus/${PAGES[page].file}${fault ? `?fault=${fault.kind}&on=${encodeURIComponent(fault.on)}` : ''}`),
    close: async () => {
      await browser.close().catch(() => {});
      await server.close();
    },
  };
}

/**
 * A Playwright locator for a corpus target: by role and exact name, inside `region` when given
 * (`role[name]`, as prufe names the region an element is in) and inside the container `in`
 * names when given.
 */
export function locate(page, target) {
  const region = target.region ? /^([a-z]+)\[(.*)\]$/.exec(target.region) : null;
  let scope = region ? page.getByRole(region[1], { name: region[2], exact: true }) : page;
  // Chromium names a row by all its cells, the target's own among them: the row's name holds prufe's.
  if (target.in) scope = scope.getByRole(target.in.role, { name: target.in.name });
  return scope.getByRole(target.role, { name: target.name, exact: true });
}

/**
 * In the page: focuses the editable `el` and selects the first occurrence of `word` in its
 * text, as a double click on the word would (the editor hears `selectionchange`).
 * @param {HTMLElement} el @param {string} word
 */
function selectText(el, word) {
  el.focus();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    const selection = document.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return;
  }
  throw new Error(`selectText: no "${word}" in the element`);
}

/** Does one unverified setup step with Playwright, then waits for what it shows (`then`). */
async function setupStep(page, step) {
  const el = locate(page, step.target).first();
  switch (step.kind) {
    case 'click': await el.click(step.force ? { force: true } : undefined); break;
    case 'fill': await el.fill(step.value); break;
    case 'press': await el.press(step.key); break;
    case 'check': await el.check(); break;
    case 'hover': await el.hover(); break;
    case 'selectText': await el.evaluate(selectText, step.value); break;
    default: throw new Error(`setup: unknown kind ${step.kind}`);
  }
  if (step.then) await locate(page, step.then).first().waitFor({ state: 'visible' });
}

/** The verified step, through the package's verifier. */
function verified(v, action, intent) {
  const o = { intent: intent ?? undefined };
  const t = action.target;
  switch (action.kind) {
    case 'click': return v.click(t, o);
    case 'check': return v.check(t, o);
    case 'uncheck': return v.uncheck(t, o);
    case 'fill': return v.fill(t, action.value, o);
    case 'select': return v.selectOption(t, action.option, o);
    case 'press': return v.press(t ?? null, action.key, o);
    case 'hover': return v.hover(t, o);
    case 'upload': return v.setInputFiles(t, action.files.map((f) => join(CORPUS, f)), o);
    case 'drag': return v.dragTo(t, action.to, o);
    default: throw new Error(`unknown action kind ${action.kind}`);
  }
}

/**
 * Runs one run on a fresh page of `context` and says what the package decided:
 * `{ id, verdict, code, reason, ms }`; verdict is MATCH, MISMATCH, AMBIGUOUS or null (the step
 * ended in an error before any verdict, `code` says which), or SETUP when the page or the
 * setup failed before the verified step.
 */
const TAP = process.env.CORPUS_TAP || null;
if (TAP) mkdirSync(TAP, { recursive: true });
/** The machine states judged in each run under way, by run id. */
const tapped = new Map();

export async function runOne(corpus, context, run, options = {}) {
  const started = Date.now();
  const { entry } = run;
  let timer;
  let page = null;
  try {
    // How long the page took to show its first target, the setup, and the verified step.
    const phases = {};
    let lap = Date.now();
    const phase = (name) => {
      phases[name] = Date.now() - lap;
      lap = Date.now();
    };
    const work = (async () => {
      page = await context.newPage();
      try {
        await page.goto(corpus.url(entry.page, run.kind === 'fault' ? entry.fault : null));
        // A file input is hidden and has no role in Playwright's tree: its page is ready when its
        // heading shows.
        const first = entry.setup?.[0]?.target ?? (entry.action.kind === 'upload' ? null : entry.action.target) ?? PAGES[entry.page].ready;
        await locate(page, first).first().waitFor({ state: 'visible' });
        phase('load');
        for (const step of entry.setup ?? []) await setupStep(page, step);
        phase('setup');
      } catch (error) {
        return { verdict: 'SETUP', code: 'SETUP', reason: String(error.message).split('\n')[0] };
      }
      // CORPUS_TAP=DIR keeps the machine's state at each judgement of the run as
      // DIR/<run id>.json, which `cargo run --example rejudge -- DIR` judges again offline.
      const judged = [];
      const v = await prufe(page, { ...options, ambiguous: 'reject', onJudged: TAP ? (state) => judged.push(state) : undefined });
      if (TAP) tapped.set(run.id, judged);
      try {
        const result = await verified(v, entry.action, run.intent);
        phase('step');
        return { verdict: result.verdict, code: null, reason: result.reason, phases };
      } catch (error) {
        phase('step');
        const record = error.record ?? null;
        return { verdict: record?.verdict ?? null, code: error.code ?? 'ERROR', reason: record?.reason ?? String(error.message).split('\n')[0], phases };
      }
    })();
    const budget = new Promise((done) => {
      timer = setTimeout(() => done({ verdict: null, code: 'RUN_TIMEOUT', reason: `no outcome within ${RUN_BUDGET_MS / 1000} s` }), RUN_BUDGET_MS);
    });
    const outcome = await Promise.race([work, budget]);
    if (TAP) {
      const states = tapped.get(run.id) ?? [];
      tapped.delete(run.id);
      writeFileSync(join(TAP, `${run.id}.json`), JSON.stringify({ id: run.id, kind: run.kind, outcome, states }));
    }
    return { id: run.id, ...outcome, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
    await page?.close().catch(() => {});
  }
}

/** Is this outcome what the run should get: MATCH for an honest run, anything else for a fault. */
export function passed(run, outcome) {
  return run.kind === 'honest' ? outcome.verdict === 'MATCH' && !outcome.code : outcome.verdict !== 'MATCH';
}

/**
 * Runs `runs` two at a time (the machine has two cores); `onResult(run, outcome)` hears each;
 * `options` are the verifier's (timing: `quickMs`).
 * @returns {Promise<Map<string, any>>} run id → outcome
 */
export async function runAll(corpus, runs, { concurrency = 2, onResult = () => {}, options = {} } = {}) {
  const outcomes = new Map();
  let next = 0;
  // One context per worker, a fresh page per run.
  const worker = async () => {
    const context = await corpus.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      while (next < runs.length) {
        const run = runs[next++];
        const outcome = await runOne(corpus, context, run, options);
        outcomes.set(run.id, outcome);
        onResult(run, outcome);
      }
    } finally {
      await context.close().catch(() => {});
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/** The short form of an outcome kept in known-refusals.json and printed in the report. */
export function refusal(outcome) {
  return { verdict: outcome.verdict ?? outcome.code, reason: outcome.reason };
}

export { ROOT };
