// The scenarios of the parity suite (tests/parity/scenarios.json, one file for every surface)
// that the npm package plays, and the player that runs a scenario's steps through a verifier
// the way `prufe run` runs its script: the package suites (package-suite.mjs) check what a
// record alone does not show on them; the parity suite (parity-run.mjs) compares the records.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A card number: a payment field is sensitive by itself. */
export const CARD = '4111111111111111';

/** The parity suite's file: surfaces, the roles handed over as library elements, scenarios. */
export const PARITY = JSON.parse(readFileSync(new URL('../../parity/scenarios.json', import.meta.url), 'utf8'));

/**
 * name → { page, steps, host? } of every scenario the npm package can play (with Playwright:
 * the same list as with Puppeteer). A step list ends at the first failing step, as `prufe run`
 * does; `host` is the loopback name the page is opened at (127.0.0.1 by default).
 */
export const SCENARIOS = Object.fromEntries(PARITY.scenarios.filter((s) => !s.cannot?.playwright).map((s) => [s.name, s]));

/** The values a scenario fills that must appear in no output: sensitive, or typed into a field the page makes sensitive. */
export function secretsOf(scenario) {
  return scenario.steps.filter((s) => s.action === 'fill' && (s.sensitive || /card|password/i.test(s.target.name))).map((s) => s.value);
}

/** A scratch directory with `receipt.txt`, the file of the upload scenario (`RECEIPT`). */
export function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'prufe-node-'));
  const receipt = join(dir, 'receipt.txt');
  writeFileSync(receipt, 'paid\n');
  return { dir, receipt, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Roles whose elements are handed over as library elements (the others by prufe target). */
const BY_ELEMENT = new Set(PARITY.locatorRoles);

/**
 * Runs a scenario's steps through a verifier, the way `prufe run` runs the script: step by
 * step, stopping at the first that fails. `lib.element(target)` gives the library's element
 * (Locator / ElementHandle) for a target, or the target itself when the library has none;
 * `lib.act(target)` clicks it unverified (a watch's inner step). `files` maps a file name of
 * the scenario to its path. Returns one entry per step that ran: `{ record, result, error }`.
 */
export async function runScenario(v, steps, lib, { files = {} } = {}) {
  const out = [];
  const target = async (t) => (BY_ELEMENT.has(t.role) ? lib.element(t) : t);
  for (const step of steps) {
    const options = {
      ...(step.intent ? { intent: step.intent } : {}),
      ...(step.inverse ? { inverse: inverseOf(step.inverse) } : {}),
    };
    let result;
    try {
      switch (step.action) {
        case 'click':
          result = await v.click(await target(step.target), options);
          break;
        case 'fill':
          result = await v.fill(await target(step.target), step.value, { ...options, sensitive: step.sensitive });
          break;
        case 'check':
          result = await v.check(await target(step.target), options);
          break;
        case 'uncheck':
          result = await v.uncheck(await target(step.target), options);
          break;
        case 'select':
          result = await v.selectOption(await target(step.target), step.option, options);
          break;
        case 'press':
          result = await v.press(step.target ? await target(step.target) : null, step.key, options);
          break;
        case 'goto':
          result = await v.goto(step.url, options);
          break;
        case 'hover':
          result = await v.hover(await target(step.target), options);
          break;
        case 'upload':
          result = await v.setInputFiles(await target(step.target), step.files.map((f) => files[f] ?? f), options);
          break;
        case 'drag':
          result = await v.dragTo(await target(step.target), await target(step.to), options);
          break;
        case 'screenshot':
          await v.screenshot(step.maxWidth === undefined ? {} : { maxWidth: step.maxWidth });
          continue;
        case 'click_at':
          result = await v.clickAt(step.x, step.y, { ...options, observation: step.observation, ...(step.button ? { button: step.button } : {}) });
          break;
        case 'drag_at':
          result = await v.dragAt(step.from, step.to, { ...options, observation: step.observation, ...(step.steps ? { steps: step.steps } : {}) });
          break;
        case 'scroll_at':
          result = await v.scrollAt(step.x, step.y, step.dx, step.dy, { observation: step.observation });
          break;
        case 'type':
          result = await v.type(step.text, { sensitive: step.sensitive });
          break;
        case 'key':
          result = await v.key(step.chord);
          break;
        case 'wait':
          result = await v.waitFor(untilOf(step.until), step.timeoutMs === undefined ? {} : { timeoutMs: step.timeoutMs });
          break;
        case 'watch':
          result = await v.watch(step.intent ?? null, async () => {
            for (const inner of step.steps) await lib.act(inner.target);
          });
          break;
        default:
          throw new Error(`no runner for ${step.action}`);
      }
      out.push({ record: result.record, result, error: null });
      // A watch that saw the wrong effect fails without throwing; the run stops there too.
      if (!result.ok) break;
    } catch (error) {
      if (!error.record && !error.code) throw error;
      out.push({ record: error.record, result: null, error });
      break;
    }
  }
  return out;
}

/**
 * A script's inverse (one step or a list) as the package takes it: the machine's steps,
 * `{ action: { kind, … }, intent? }`.
 * @param {object | object[]} inverse
 */
export function inverseOf(inverse) {
  return [inverse].flat().map(({ action, intent, ...fields }) => ({ action: { kind: action, ...fields }, ...(intent ? { intent } : {}) }));
}

/**
 * A coordinate script's `until` (`{ text, region? }`, `{ role, name, region? }`, `{ textGone }`)
 * as the machine's postcondition, which the package takes.
 * @param {{ text?: string, textGone?: string, role?: string, name?: string, region?: string }} until
 */
export function untilOf(until) {
  const region = until.region ?? null;
  if (until.textGone !== undefined) return { kind: 'textGone', text: until.textGone, region };
  if (until.text !== undefined) return { kind: 'textAppears', text: until.text, region };
  return { kind: 'appears', role: until.role, name: until.name, region };
}
