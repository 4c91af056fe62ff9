// A consumer of the prufe package, type-checked by `tsc --noEmit -p tests/ts` (make test):
// every entry point, the errors and the record as a TypeScript user sees them.

import { chromium, type Page } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import defaultPrufe, { prufe, PrufeError, VerificationFailed, UndoFailed, IrreversibleAction, type StepRecord, type Options, type Shot } from 'prufe';
import { prufe as forPlaywright, Result } from 'prufe/playwright';
import { prufe as forPuppeteer } from 'prufe/puppeteer';
import { expect, test } from 'prufe/test';

const options: Options = {
  maxAttempts: 2,
  quietMs: 250,
  quickMs: 50,
  timeoutMs: 5000,
  ambiguous: 'reject',
  traceDir: 'traces',
  judge: async (question) => ({ yes: question.observed.length > 0, detail: question.reason }),
};

export async function withPlaywright(page: Page): Promise<string> {
  const v = await forPlaywright(page, options);
  const added: Result = await v.click(page.getByRole('button', { name: 'Add Shirt M' }), { intent: 'the cart gains a shirt' });
  const verdict: 'MATCH' | 'MISMATCH' | 'AMBIGUOUS' | null = added.verdict;
  await v.fill({ role: 'textbox', name: 'Password' }, 'secret', { sensitive: true });
  await v.check(page.getByRole('checkbox', { name: 'Gift wrap' }));
  await v.uncheck(await page.getByRole('checkbox', { name: 'Gift wrap' }).elementHandle() ?? { name: 'Gift wrap' });
  await v.selectOption({ role: 'combobox', name: 'Shipping' }, 'Express');
  await v.press(null, 'Enter');
  await v.press(page.getByRole('textbox', { name: 'Name' }), 'Tab');
  await v.hover({ role: 'button', name: 'Account' });
  await v.setInputFiles({ role: 'button', name: 'Receipt' }, ['receipt.txt']);
  await v.dragTo({ role: 'listitem', name: 'Write invoice' }, { role: 'list', name: 'Done' });
  await v.goto('/shop.html', { intent: 'the shop opens' });
  const watched = await v.watch('the cart gains a cap', () => page.getByRole('button', { name: 'Add Cap' }).click());
  const shot: Shot = await v.screenshot({ maxWidth: 1280 });
  const png: Buffer = shot.png;
  const clicked = await v.clickAt(412 / shot.scale.x, 230, { observation: shot.id, intent: 'the cart gains a cap', button: 'left' });
  const next = clicked.observation?.id;
  await v.dragAt({ x: 10, y: 20 }, { x: 10, y: 200 }, { steps: 20, observation: next });
  await v.scrollAt(100, 100, 0, 300);
  await v.type('Ada', { sensitive: false });
  await v.key('Control+S');
  if (png.length === 0) return 'no picture';
  try {
    await v.click({ role: 'button', name: 'Add Socks S', region: 'main/list:catalogue' });
  } catch (error) {
    if (error instanceof VerificationFailed) {
      const record: StepRecord = error.record;
      return `${record.reason} ${error.explain()}`;
    }
    if (error instanceof UndoFailed) return error.residue.join('\n');
    if (error instanceof IrreversibleAction) return error.code;
    if (error instanceof PrufeError) return `${error.code}: ${error.candidates?.map((c) => c.name).join(', ')}`;
    throw error;
  }
  return `${verdict} ${watched.lines.join('\n')} ${added.explain()}`;
}

export async function withPuppeteer(): Promise<void> {
  const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium' });
  const page = await browser.newPage();
  const v = await forPuppeteer(page);
  const handle = await page.$('button');
  if (handle) await v.click(handle);
  await v.click(page.locator('::-p-aria(Add Shirt M)'));
  const any = await prufe(page);
  await any.click({ name: 'Add Shirt M' });
  await defaultPrufe(page);
  await browser.close();
}

export async function launch(): Promise<void> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  await withPlaywright(await browser.newPage());
}

test.use({ prufeOptions: { maxAttempts: 1 } });
// Options made per test, as workers running together need (a trace directory of its own).
test.describe('per test', () => {
  test.use({
    prufeOptions: async ({}, use, testInfo) => {
      await use({ maxAttempts: 1, traceDir: testInfo.outputPath('prufe-traces') });
    },
  });
});
test('the fixture', async ({ page, prufe: v }) => {
  const r = await v.click(page.getByRole('button', { name: 'Add Shirt M' }));
  await expect(r).toBeVerified();
  await expect(v.click({ role: 'button', name: 'Add Cap' })).toHaveEffect(/appeared listitem\[Cap/);
  expect(r.attempts).toBe(1);
});
