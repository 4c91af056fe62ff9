import type { ElementHandle, Locator, PlaywrightTestArgs, PlaywrightTestOptions, PlaywrightWorkerArgs, PlaywrightWorkerOptions, TestType, Expect } from '@playwright/test';
import type { Options, Result, PrufeError, Verifier } from './index.js';

export * from './index.js';

export interface PrufeFixtures {
  /** A verifier of the test's `page`. */
  prufe: Verifier<Locator | ElementHandle>;
  /** Its options: `test.use({ prufeOptions: { … } })`. */
  prufeOptions: Options;
}

export type PrufeTest = TestType<PlaywrightTestArgs & PlaywrightTestOptions & PrufeFixtures, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;
export const test: PrufeTest;

type Step = Result | PrufeError | Promise<Result>;
export const expect: Expect<{
  /** The step was verified (MATCH, or an approved AMBIGUOUS). */
  toBeVerified(this: unknown, received: Step): Promise<{ pass: boolean; message: () => string }>;
  /** The step's observed effect has this line (or a line matching it). */
  toHaveEffect(this: unknown, received: Step, line: string | RegExp): Promise<{ pass: boolean; message: () => string }>;
}>;
