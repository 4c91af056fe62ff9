// The scenarios the package is checked on, each as a `prufe run` script (steps on one page)
// and as calls of the package's methods, so that a test can run both and compare the
// records step by step. `liveCli` runs the script through the `prufe` binary of PRUFE_CLI.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A secret typed into a sensitive field; a test searches every output for it. */
export const SECRET = 'hunter22-Corr3ct-Horse';
/** A card number: a payment field is sensitive by itself. */
export const CARD = '4111111111111111';

const click = (name, intent) => ({ action: 'click', target: { role: 'button', name }, ...(intent ? { intent } : {}) });

/** Card payment in a frame of another origin (fixtures/hostile/11-cross-origin-iframe.html). */
const CROSS_ORIGIN_PAYMENT = [
  { action: 'fill', target: { role: 'textbox', name: 'Card number' }, value: CARD, sensitive: true },
  { action: 'fill', target: { role: 'textbox', name: 'Expiry' }, value: '12/29' },
  click('Pay', 'the payment is accepted'),
];

/**
 * name → { page, steps, host? }. A step list ends at the first failing step, as `prufe run`
 * does. `host` is the loopback name the page is opened at (127.0.0.1 by default).
 */
export const SCENARIOS = {
  'recycled list': { page: '/recycled-list.html', steps: [click('Add Shirt M', 'add Shirt M to the cart')] },
  overlay: { page: '/overlay.html', steps: [click('Add Shirt M')] },
  'late effect': { page: '/late-effect.html', steps: [click('Add Shirt M')] },
  'shadow DOM': {
    page: '/shadow.html',
    steps: [
      { action: 'fill', target: { role: 'spinbutton', name: 'Quantity' }, value: '2' },
      click('Add Shirt M'),
    ],
  },
  'iframe payment': {
    page: '/iframe-payment.html',
    steps: [
      { action: 'fill', target: { role: 'textbox', name: 'Card number' }, value: CARD },
      click('Pay', 'the payment is accepted'),
    ],
  },
  'confirm dialog': { page: '/confirm-dialog.html', steps: [click('Delete account'), click('Confirm delete')] },
  secrets: {
    page: '/login.html',
    steps: [
      { action: 'fill', target: { role: 'textbox', name: 'Email' }, value: 'ada@example.com' },
      { action: 'fill', target: { role: 'textbox', name: 'Password' }, value: SECRET, sensitive: true },
      click('Sign in', 'welcome back'),
    ],
  },
  hover: { page: '/shop.html', steps: [{ action: 'hover', target: { role: 'button', name: 'Account' } }] },
  upload: {
    page: '/shop.html',
    steps: [{ action: 'upload', target: { role: 'button', name: 'Receipt' }, files: ['receipt.txt'], intent: 'the receipt receipt.txt is uploaded' }],
  },
  drag: {
    page: '/shop.html',
    steps: [{ action: 'drag', target: { role: 'listitem', name: 'Write invoice' }, to: { role: 'list', name: 'Done' } }],
  },
  'form and goto': {
    page: '/shop.html',
    steps: [
      { action: 'fill', target: { role: 'textbox', name: 'Name' }, value: 'Ada' },
      { action: 'check', target: { role: 'checkbox', name: 'Gift wrap' } },
      { action: 'uncheck', target: { role: 'checkbox', name: 'Gift wrap' } },
      { action: 'select', target: { role: 'combobox', name: 'Shipping' }, option: 'Express' },
      { action: 'goto', url: '/recycled-list.html' },
    ],
  },
  keys: {
    page: '/keys.html',
    steps: [{ action: 'press', key: 'Enter', target: { role: 'textbox', name: 'Text' } }],
  },
  // The frame is of another port (another origin, the same site): in the page's process.
  'cross-origin payment': { page: '/hostile/11-cross-origin-iframe.html', steps: CROSS_ORIGIN_PAYMENT },
  // The page at localhost, the frame at 127.0.0.1: another site, so an out-of-process frame
  // under site isolation. The CLI's browser runs without it; its records are the same.
  'cross-origin payment (out of process)': { page: '/hostile/11-cross-origin-iframe.html', host: 'localhost', steps: CROSS_ORIGIN_PAYMENT },
  watch: {
    page: '/shop.html',
    steps: [{ action: 'watch', intent: 'the cart gains a cap', steps: [click('Add Cap')] }],
  },
  // A checkbox and a radio kept visually hidden inside the labels that draw them (clicked on
  // the label), a button covered only by its own slotted text, and a hidden checkbox whose
  // label is under a veil (refused, nothing clicked).
  'hidden controls': {
    page: '/actionability/hidden-controls.html',
    steps: [
      { action: 'check', target: { role: 'checkbox', name: 'Travel insurance' } },
      { action: 'click', target: { role: 'radio', name: 'Aisle' } },
      click('Turn all lights off', 'all the lights are off'),
      { action: 'check', target: { role: 'checkbox', name: 'Carbon offset' } },
    ],
  },
};

/** The fields the machine decides, as the CLI's --json line names them. */
export function decided(record) {
  const { verdict, reason, attempts, undone, lines } = record;
  const error = typeof record.error === 'string' ? record.error : record.error?.code ?? null;
  return { verdict, reason, attempts, undone, error, lines: lines ?? record.diff };
}

/** A scratch directory with `receipt.txt`, the file the upload scenario sets. */
export function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'prufe-node-'));
  const receipt = join(dir, 'receipt.txt');
  writeFileSync(receipt, 'paid\n');
  return { dir, receipt, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The CLI's --json lines for a scenario's steps on `url` (one per step that ran), decided
 * fields only. Runs asynchronously: the fixture server may live in the calling process.
 */
export async function liveCli(cli, url, steps, { traceDir } = {}) {
  const { dir, remove } = scratch();
  try {
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify(steps));
    const args = ['run', '--json', '--script', script, url, ...(traceDir ? ['--trace-dir', traceDir] : [])];
    // Exit code 1 is a failed step; its line is printed all the same.
    const run = await promisify(execFile)(cli, args, { timeout: 120_000 }).catch((error) => error);
    const lines = String(run.stdout ?? '').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    if (lines.length === 0) throw new Error(`prufe run printed nothing: ${run.stderr ?? run.message}`);
    return lines.map(decided);
  } finally {
    remove();
  }
}

/** Roles whose elements a test hands over as library elements (the others by prufe target). */
const BY_ELEMENT = new Set(['button', 'textbox', 'spinbutton']);

/**
 * Runs a scenario's steps through a verifier, the way `prufe run` runs the script: step by
 * step, stopping at the first that fails. `lib.element(target)` gives the library's element
 * (Locator / ElementHandle) for a target; `lib.act(target)` clicks it unverified (a watch's
 * inner step). Returns one entry per step that ran: `{ record, error }`.
 */
export async function runScenario(v, steps, lib, { files = {} } = {}) {
  const out = [];
  const target = async (t) => (BY_ELEMENT.has(t.role) ? lib.element(t) : t);
  for (const step of steps) {
    const options = step.intent ? { intent: step.intent } : {};
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
        case 'watch':
          result = await v.watch(step.intent ?? null, async () => {
            for (const inner of step.steps) await lib.act(inner.target);
          });
          break;
        default:
          throw new Error(`no runner for ${step.action}`);
      }
      out.push({ record: result.record, result, error: null });
    } catch (error) {
      if (!error.record && !error.code) throw error;
      out.push({ record: error.record, result: null, error });
      break;
    }
  }
  return out;
}

/** The decided fields of what runScenario returned, as the CLI's lines give them. */
export function decidedSteps(ran) {
  return ran.map(({ record, error }) => (record
    ? decided(record)
    : { verdict: null, reason: error.message, attempts: 1, undone: 0, error: error.code, lines: [] }));
}
