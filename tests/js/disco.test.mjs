// What test suites written for pages on disk ask of prufe (fixtures/disco/, opened from
// file://, as such suites open their fixtures): a list without a name given as a CSS
// locator, as the target and as a drag's destination; a frame of a file:// page; an upload
// whose only feedback is the file input itself. Each case is one verified step with the
// prufe package under Playwright on /usr/bin/chromium.
// Run: `node --test tests/js/disco.test.mjs`.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { PrufeError } from '../../node/src/errors.js';
import { prufe } from '../../node/src/playwright.js';
import { CHROMIUM, CHROMIUM_FLAGS, FIXTURES, freshProfile } from './support/env.mjs';

let browser;
let profile;
let files;

before(async () => {
  profile = freshProfile();
  browser = await chromium.launchPersistentContext(profile.dir, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  files = mkdtempSync(join(tmpdir(), 'prufe-disco-'));
  for (const name of ['justificante-agosto.pdf', 'playa.jpg', 'monte.jpg', 'nomina-marzo.pdf']) writeFileSync(join(files, name), 'x');
});

after(async () => {
  await browser?.close();
  await profile?.remove();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** A fresh page of fixtures/disco/`name` opened from disk, and a verifier of it. */
async function open(t, name) {
  const page = await browser.newPage();
  t.after(() => page.close());
  await page.goto(pathToFileURL(join(FIXTURES, 'disco', name.split('?')[0])).href + (name.includes('?') ? `?${name.split('?')[1]}` : ''));
  return { page, v: await prufe(page) };
}

/** The step's record, whether it passed or was refused; a refusal's code as `code`. */
async function answer(step) {
  try {
    const r = await step();
    return { ...r.record, code: null };
  } catch (error) {
    if (!(error instanceof PrufeError)) throw error;
    return { ...(error.record ?? {}), reason: error.record?.reason ?? error.message, code: error.code };
  }
}

describe('a list without a name, given as a CSS locator', () => {
  test('as a drop zone: the task dragged into #hechas is MATCH, named by its place', async (t) => {
    const { page, v } = await open(t, 'tablero.html');
    const r = await answer(() => v.dragTo(page.getByText('Regar las plantas'), page.locator('#hechas'), { intent: 'Regar las plantas pasa a hechas' }));
    assert.equal(r.verdict, 'MATCH', `${r.code}: ${r.reason}`);
    assert.equal(r.code, null, r.reason);
    assert.equal(r.value, 'to list 1 in region[Tablero]/list:hechas');
    assert.ok(r.lines.some((l) => l.includes('list:hechas')), r.lines.join('\n'));
    assert.deepEqual(await page.locator('#hechas li').allInnerTexts(), ['Regar las plantas']);
  });

  test('a drop the wrong list takes is MISMATCH', async (t) => {
    const { page, v } = await open(t, 'tablero.html?falla');
    const r = await answer(() => v.dragTo(page.getByText('Regar las plantas'), page.locator('#hechas')));
    assert.equal(r.verdict, 'MISMATCH', `${r.code}: ${r.reason}`);
    assert.notEqual(r.code, null);
    assert.match(r.reason, /went to region\[Tablero\]\/list:archivo, not into the destination list 1 in region\[Tablero\]\/list:hechas/);
    assert.equal(await page.locator('#hechas li').count(), 0);
  });

  test('without an intent the same drop is MATCH', async (t) => {
    const { page, v } = await open(t, 'tablero.html');
    const r = await answer(() => v.dragTo(page.getByText('Pagar el alquiler'), page.locator('#hechas')));
    assert.equal(r.verdict, 'MATCH', `${r.code}: ${r.reason}`);
    assert.deepEqual(await page.locator('#hechas li').allInnerTexts(), ['Pagar el alquiler']);
  });

  test('as the target: a textarea without a label, by its id, filled: MATCH, named by its place', async (t) => {
    const { page, v } = await open(t, 'tablero.html');
    const r = await answer(() => v.fill(page.locator('#nota'), 'llamar al fontanero'));
    assert.equal(r.verdict, 'MATCH', `${r.code}: ${r.reason}`);
    assert.equal(r.target, 'textbox 1 in main');
    assert.equal(await page.locator('#nota').inputValue(), 'llamar al fontanero');
  });

  test('an identity that no longer holds at dispatch is refused, nothing dragged', async (t) => {
    const { page, v } = await open(t, 'tablero.html');
    const r = await answer(() => v.dragTo(page.getByText('Regar las plantas'), { role: 'list', name: '', region: 'region[Tablero]/list:hechas', nth: 2 }));
    assert.equal(r.code, 'TARGET_NOT_FOUND', r.reason);
    assert.match(r.reason, /list 2 in region\[Tablero\]\/list:hechas/);
    assert.equal(await page.locator('#pendientes li').count(), 2);
  });
});

test('a frame of a file:// page: the click inside is MATCH, its region prefixed with the frame', async (t) => {
  const { page, v } = await open(t, 'pago.html');
  const frame = page.frameLocator('iframe[name=pago]');
  await frame.getByRole('button', { name: 'Pagar con tarjeta' }).waitFor();
  const r = await answer(() => v.click(frame.getByRole('button', { name: 'Pagar con tarjeta' }), { intent: 'queda preparado el pago con tarjeta' }));
  assert.equal(r.verdict, 'MATCH', `${r.code}: ${r.reason}`);
  assert.equal(r.target, 'button[Pagar con tarjeta] in frame[0]/region[Pago]');
  assert.ok(r.lines.some((l) => l.includes('Pago con tarjeta preparado') && l.includes('frame[0]/region[Pago]')), r.lines.join('\n'));
  assert.equal(await frame.locator('#estado').innerText(), 'Pago con tarjeta preparado');
});

describe('an upload whose only feedback is the file input', () => {
  test('one file: MATCH, the value is its name without the fake path', async (t) => {
    const { page, v } = await open(t, 'adjunto.html');
    const r = await answer(() => v.setInputFiles(page.getByLabel('Justificante'), join(files, 'justificante-agosto.pdf')));
    assert.equal(r.verdict, 'MATCH', `${r.code}: ${r.reason}`);
    assert.ok(r.lines.some((l) => l.includes("'justificante-agosto.pdf'")), r.lines.join('\n'));
    assert.ok(!JSON.stringify(r).includes('fakepath'));
  });

  test('several files: MATCH, the value names them all', async (t) => {
    const { page, v } = await open(t, 'adjunto.html');
    const r = await answer(() => v.setInputFiles(page.getByLabel('Fotos'), [join(files, 'playa.jpg'), join(files, 'monte.jpg')]));
    assert.equal(r.verdict, 'MATCH', `${r.code}: ${r.reason}`);
    assert.ok(r.lines.some((l) => l.includes("'playa.jpg, monte.jpg'")), r.lines.join('\n'));
  });

  test('in a sensitive part of the page the file name is a secret', async (t) => {
    const { page, v } = await open(t, 'adjunto.html');
    const r = await answer(() => v.setInputFiles(page.getByLabel('Nómina'), join(files, 'nomina-marzo.pdf')));
    assert.ok(!JSON.stringify(r).includes('nomina-marzo'), JSON.stringify(r));
    assert.ok(!(r.reason ?? '').includes('nomina-marzo'), r.reason);
    assert.equal(await page.getByLabel('Nómina').evaluate((input) => input.files[0]?.name), 'nomina-marzo.pdf');
  });
});
