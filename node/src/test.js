// @ts-check
// prufe for Playwright Test: a `prufe` fixture (a verifier of the test's `page`) and matchers.
//
//   import { test, expect } from 'prufe/test';
//   test('adds a shirt', async ({ page, prufe }) => {
//     await page.goto('/shop.html');
//     const added = await prufe.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'the cart gains a shirt' });
//     expect(added).toHaveEffect(/appeared listitem\[Shirt M/);
//   });
//
// A step that is not verified throws (VerificationFailed, UndoFailed, IrreversibleAction,
// or a PrufeError with the engine's code), and the test fails with the step's report.
// `prufeOptions` (`test.use({ prufeOptions: { maxAttempts: 1 } })`) are the verifier's options.
// `test` is `base.extend(…)` and `expect` is `baseExpect.extend(…)`, so both go into
// `mergeTests` / `mergeExpects` with other fixtures and matchers.

import { expect as baseExpect, test as base } from '@playwright/test';
import { PrufeError } from './errors.js';
import { prufe as verifierOf } from './playwright.js';
import { Result } from './verifier.js';

/** @type {import('../types/test.js').PrufeTest} */
export const test = /** @type {any} */ (base).extend({
  prufeOptions: [{}, { option: true }],
  prufe: async (/** @type {any} */ { page, prufeOptions }, /** @type {(v: unknown) => Promise<void>} */ use) => {
    await use(await verifierOf(page, prufeOptions));
  },
});

/**
 * The record a matcher was given: a Result, a PrufeError, or a promise of either.
 * @param {unknown} received
 * @returns {Promise<{ record: PrufeRun.Record | null, error: PrufeError | null, text: string }>}
 */
async function settled(received) {
  let value = received;
  if (value && typeof (/** @type {any} */ (value)).then === 'function') {
    value = await /** @type {Promise<unknown>} */ (value).then((r) => r, (e) => e);
  }
  if (value instanceof Result) return { record: value.record, error: null, text: value.explain() };
  if (value instanceof PrufeError) return { record: value.record, error: value, text: value.explain() };
  throw new TypeError('expected the result of a prufe step (or its promise)');
}

export const expect = baseExpect.extend({
  /**
   * The step was verified: MATCH (or an approved AMBIGUOUS), nothing undone.
   * @param {unknown} received a Result, or the promise of a step
   */
  async toBeVerified(received) {
    const { record, error, text } = await settled(received);
    const pass = !error && Boolean(record?.ok);
    return {
      pass,
      name: 'toBeVerified',
      message: () => (pass ? `expected the step not to be verified\n\n${text}` : `expected the step to be verified\n\n${text}`),
    };
  },

  /**
   * The step's observed effect has a line equal to `line` (a string) or matching it.
   * @param {unknown} received a Result, a PrufeError, or the promise of a step
   * @param {string | RegExp} line
   */
  async toHaveEffect(received, line) {
    const { record, text } = await settled(received);
    const lines = record?.lines ?? [];
    const pass = lines.some((l) => (typeof line === 'string' ? l === line : line.test(l)));
    return {
      pass,
      name: 'toHaveEffect',
      expected: line,
      actual: lines,
      message: () => `expected the step ${pass ? 'not ' : ''}to have the effect ${line}\n\n${text}`,
    };
  },
});

export * from './errors.js';
export { Result } from './verifier.js';
