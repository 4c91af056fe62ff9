// The package's scenario suite, run once per browser library (package-playwright.test.mjs,
// package-puppeteer.test.mjs): every scenario the package plays of the parity suite
// (tests/parity/scenarios.json, whose test compares their records with the CLI's) through the
// package's methods, with what a record alone does not show: the trace files, the page after
// a refused step, the typed errors, strict resolution of library elements, isolation, and
// secrets in no output.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { IrreversibleAction, PrufeError, VerificationFailed } from '../../../node/src/index.js';
import { SCENARIOS, runScenario, scratch, secretsOf } from './scenarios.mjs';

/** A secret typed into a sensitive field by the tests of this file; each searches every output for it. */
const SECRET = 'hunter22-Corr3ct-Horse';

/**
 * The viewport of the parity suite's window (`--window-size=1280,720`, headless), on whose
 * screenshots the coordinate scenarios' points were chosen.
 */
const PARITY_VIEWPORT = { width: 1280, height: 633 };
/**
 * What keys.html logs for the chords the machine sends key by key: Shift with `+`, Control
 * and Shift with a letter (which types the capital, as a keyboard does), a key alone.
 */
const CHORD_EVENTS = [
  'keydown Shift ctrl=false shift=true alt=false meta=false',
  'keydown + ctrl=false shift=true alt=false meta=false',
  'keyup + ctrl=false shift=true alt=false meta=false',
  'keyup Shift ctrl=false shift=false alt=false meta=false',
  'keydown Control ctrl=true shift=false alt=false meta=false',
  'keydown Shift ctrl=true shift=true alt=false meta=false',
  'keydown K ctrl=true shift=true alt=false meta=false',
  'keyup K ctrl=true shift=true alt=false meta=false',
  'keyup Shift ctrl=true shift=false alt=false meta=false',
  'keyup Control ctrl=false shift=false alt=false meta=false',
  'keydown Enter ctrl=false shift=false alt=false meta=false',
  'keyup Enter ctrl=false shift=false alt=false meta=false',
];
const COORDINATE = new Set(['screenshot', 'click_at', 'drag_at', 'scroll_at', 'type', 'key']);

/** A page of its own for the strictness tests: two `Buy` buttons, a hidden one, a nameless one. */
export const STRICT_PAGE = `<!doctype html><html lang="en"><title>strict</title><main>
<section aria-label="First"><button>Buy</button></section>
<section aria-label="Second"><button>Buy</button></section>
<section aria-label="Twins"><button class="twin">Remove</button><button class="twin">Remove</button></section>
<button id="hidden" style="display:none">Secret offer</button>
<button id="save" onclick="document.getElementById('out').textContent='Saved'">Save</button>
<section id="zone" aria-label="Drop zone" style="visibility:hidden">Drop here</section>
<p role="status" id="out"></p>
</main></html>`;

/**
 * @param {object} lib
 * @param {string} lib.name 'Playwright' | 'Puppeteer'
 * @param {() => { server: any }} lib.env the file's fixture server, once `before` ran
 * @param {(t: any, path: string, host?: string) => Promise<any>} lib.open a new page at `path`
 * @param {(page: any, options?: object) => Promise<any>} lib.verifier the package's verifier of it
 * @param {(page: any) => { element: (t: object) => Promise<any>, act: (t: object) => Promise<void> }} lib.helpers
 * @param {(page: any, css: string) => Promise<any>} lib.css a library element by CSS selector (a Locator matches all)
 * @param {(page: any, size: { width: number, height: number }) => Promise<void>} lib.viewport sets the page's viewport
 */
export function packageSuite(lib) {
  const cartSize = (page) => page.evaluate(() => document.querySelectorAll('#cart-items li').length);

  describe(`prufe with ${lib.name}: every scenario of the parity suite`, () => {
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      test(name, async (t) => {
        const page = await lib.open(t, scenario.page, scenario.host);
        if (scenario.steps.some((s) => COORDINATE.has(s.action))) await lib.viewport(page, PARITY_VIEWPORT);
        const files = scratch();
        const traces = mkdtempSync(join(tmpdir(), 'prufe-traces-'));
        t.after(() => { files.remove(); rmSync(traces, { recursive: true, force: true }); });
        const v = await lib.verifier(page, { traceDir: traces });
        const output = [];
        const ran = await captureOutput(output, () => runScenario(v, scenario.steps, lib.helpers(page), { files: { RECEIPT: files.receipt } }));
        assert.ok(ran.length > 0, name);
        // One trace record per step that reached the machine, named as the CLI names them (a
        // library element refused before the step leaves none).
        const written = readdirSync(traces).filter((n) => n.endsWith('.json')).sort();
        assert.equal(written.length, ran.filter((r) => r.record).length, written.join(', '));
        if (written.length > 0) assert.ok(readdirSync(traces).includes('traces.js'));
        for (const [i, file] of written.entries()) {
          const record = JSON.parse(readFileSync(join(traces, file), 'utf8'));
          assert.equal(record.step, i + 1);
          assert.match(file, new RegExp(`^${String(i + 1).padStart(4, '0')}-${record.action}-`));
        }
        const last = ran.at(-1);
        switch (name) {
          case 'recycled list':
            assert.ok(last.error instanceof VerificationFailed);
            assert.equal(last.error.code, 'VERIFICATION_FAILED');
            assert.ok(last.record.undone >= 1);
            assert.equal(await cartSize(page), 0, 'every wrong effect was undone');
            assert.match(last.error.explain(), /Verdict: {3}MISMATCH — the effect belongs to button\[Add Trousers L\]/);
            break;
          case 'reorder key undone':
            // A key that moves the row the other way from the intent: refused, and taken back
            // by the key declared as its inverse on every attempt, the order as it was.
            assert.ok(last.error instanceof VerificationFailed, last.error?.message);
            assert.equal(last.record.verdict, 'MISMATCH');
            assert.ok(last.record.undone >= 1 && last.record.undone === last.record.attempts, last.error.explain());
            assert.deepEqual(
              await page.evaluate(() => [...document.querySelectorAll('#speakers > li')].map((li) => li.textContent)),
              ['Aled', 'Bryn', 'Carys', 'Olwen', 'Rhys'],
            );
            break;
          case 'overlay':
            assert.ok(last.error instanceof PrufeError);
            assert.equal(last.error.code, 'TARGET_OBSCURED');
            assert.equal(await cartSize(page), 0);
            break;
          case 'hidden controls': {
            assert.deepEqual(ran.slice(0, 3).map((r) => r.record.verdict), ['MATCH', 'MATCH', 'MATCH']);
            assert.ok(last.error instanceof PrufeError);
            assert.equal(last.error.code, 'TARGET_OBSCURED');
            assert.match(last.error.message, /^checkbox\[Carbon offset\] in region\[Covered\] is covered by div#veil at /);
            const checked = await page.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.checked));
            assert.deepEqual(checked, [true, false, true, false], 'insurance and aisle chosen on their labels; offset untouched');
            break;
          }
          case 'keys':
          case 'confirm dialog':
            assert.ok(last.error instanceof IrreversibleAction);
            assert.match(last.error.explain(), /no inverse applies; stopped/);
            break;
          case 'iframe payment':
          case 'cross-origin payment':
          case 'cross-origin payment out of process':
          case 'secrets': {
            const secrets = secretsOf(scenario);
            assert.ok(secrets.length > 0);
            const everything = [
              JSON.stringify(ran.map((r) => r.record)),
              ...ran.map((r) => (r.result ?? r.error).explain()),
              ...ran.filter((r) => r.error).map((r) => `${r.error.message}\n${r.error.stack}`),
              ...readdirSync(traces).map((f) => readFileSync(join(traces, f), 'utf8')),
              output.join(''),
            ].join('\n');
            for (const secret of secrets) assert.ok(!everything.includes(secret), 'a secret appears in no output');
            for (const [i, r] of ran.entries()) if (secrets.includes(scenario.steps[i].value)) assert.equal(r.record.value, '[redacted]', r.record.target);
            assert.equal(last.error, null, last.error?.message);
            break;
          }
          case 'watch reject':
            // The package's watch throws on a wrong effect (the Python package's returns it).
            assert.ok(last.error instanceof VerificationFailed);
            assert.equal(last.record.verdict, 'MISMATCH');
            break;
          case 'link sent elsewhere':
            assert.equal(last.error?.code, 'STALE_OBSERVATION', last.error?.message);
            assert.match(page.url(), /\/nav\/site\.html$/, 'back where it started');
            break;
          case 'coordinate click and drag':
            // The click added the cap; the page scrolled to its end; the drag moved the task.
            assert.equal(ran[0].record.verdict, 'MATCH', ran[0].record.reason);
            assert.equal(await cartSize(page), 1);
            assert.equal(last.error, null, last.error?.message);
            assert.equal(last.record.verdict, 'MATCH', last.record.reason);
            assert.equal(await page.evaluate(() => document.getElementById('task-invoice').parentElement.id), 'done');
            break;
          case 'coordinate type and key':
            assert.equal(ran[1].record.value, 'Ada');
            assert.match(ran[2].record.reason, /the focus is on combobox\[Shipping\]/);
            assert.equal(last.error, null, last.error?.message);
            assert.equal(await page.evaluate(() => document.getElementById('name').value), 'Ada Lovelace');
            break;
          case 'coordinate scroll and wait':
            assert.match(ran[0].record.reason, /^div#scroller in generic\[Rows\] scrolled from \(0, 0\) to \(0, 300\)$/);
            assert.equal(ran[1].record.reason, 'held: listitem[Row 20] appears');
            // The row under the point does nothing when clicked: no effect, nothing to undo.
            assert.ok(last.error instanceof VerificationFailed);
            assert.equal(last.record.target, 'listitem[Row 16] in main/list:rows');
            assert.equal(await page.evaluate(() => document.getElementById('scroller').scrollTop), 300);
            break;
          case 'spoofed engine':
            // Its builtins patched, the page garbles a locator's path: refused, nothing done.
            assert.equal(last.error?.code, 'TARGET_NOT_FOUND', last.error?.message);
            assert.equal(await cartSize(page), 0);
            break;
          default:
            assert.equal(last.error, null, last.error?.message);
        }
      });
    }
  });

  describe(`prufe with ${lib.name}: a navigation is undone by going back`, () => {
    test('a link whose handler sends the tab elsewhere is STALE_OBSERVATION naming both addresses, and the tab goes back', async (t) => {
      const page = await lib.open(t, '/nav/site.html');
      const v = await lib.verifier(page);
      const error = await v.click({ role: 'link', name: 'Plans' }).then(() => null, (e) => e);
      assert.ok(error instanceof PrufeError, String(error));
      assert.equal(error.code, 'STALE_OBSERVATION', error.message);
      assert.match(error.message, /elsewhere\.html/);
      assert.match(error.message, /pricing\.html/);
      assert.match(page.url(), /\/nav\/site\.html$/, 'back where it started');
    });
  });

  describe(`prufe with ${lib.name}: a look and a wait are the machine's`, () => {
    test('a look learns what a live page changes by itself, and the next click starts from it', async (t) => {
      const page = await lib.open(t, '/real/live-shop.html');
      const v = await lib.verifier(page);
      const look = await v.look();
      assert.equal(look.record.action, 'look');
      assert.equal(look.verdict, null);
      assert.ok(look.record.background.length > 0, `the clock, ticker or carousel is learnt: ${JSON.stringify(look.record)}`);
      const r = await v.click({ role: 'button', name: 'Add Shirt M' });
      assert.equal(r.verdict, 'MATCH', r.reason);
      assert.equal(await cartSize(page), 1);
    });

    test('a wait holds once the page shows its text, and a text never shown is POSTCONDITION_TIMEOUT', async (t) => {
      const page = await lib.open(t, '/real/text-noise.html?noise=ticker');
      const v = await lib.verifier(page);
      await lib.helpers(page).act({ role: 'button', name: 'Save' });
      const held = await v.waitFor({ kind: 'textAppears', text: 'Saved' });
      assert.equal(held.ok, true);
      assert.equal(held.record.action, 'wait');
      const error = await v.waitFor({ kind: 'textAppears', text: 'Never shown' }, { timeoutMs: 600 }).then(() => null, (e) => e);
      assert.ok(error instanceof PrufeError, String(error));
      assert.equal(error.code, 'POSTCONDITION_TIMEOUT', error.message);
      const bad = await v.waitFor({ kind: 'teleported' }).then(() => null, (e) => e);
      assert.equal(bad?.code, 'INVALID_ARGUMENT', String(bad));
    });
  });

  describe(`prufe with ${lib.name}: coordinate steps`, () => {
    /** The centre of the element `css` selects, in pixels of `shot`'s image. */
    const pointOf = async (page, css, shot) => {
      const c = await page.evaluate((sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }, css);
      return { x: Math.round(c.x / shot.scale.x), y: Math.round(c.y / shot.scale.y) };
    };
    const failure = (promise) => promise.then((r) => assert.fail(`resolved: ${r.reason}`), (e) => e);

    test('a click at a point of the screenshot is judged on the element shown there; an old or outside point sends nothing', async (t) => {
      const page = await lib.open(t, '/shop.html');
      await page.evaluate(() => document.querySelectorAll('#catalogue button')[0].setAttribute('id', 'first-add'));
      const v = await lib.verifier(page);
      // The widest image asked for is the machine's to check, in the words the CLI gives.
      for (const maxWidth of [0, Number.NaN, Infinity, /** @type {any} */ ('wide')]) {
        const refused = await failure(v.screenshot({ maxWidth }));
        assert.equal(refused.code, 'INVALID_ACTION', refused.message);
        assert.equal(refused.message, '"maxWidth" must be a number of at least 1');
      }
      const shot = await v.screenshot();
      assert.equal(shot.id, 'obs-1');
      assert.deepEqual([...shot.png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
      assert.equal(shot.png.readUInt32BE(16), shot.width);
      assert.equal(shot.width * shot.scale.x, await page.evaluate(() => window.innerWidth));
      const at = await pointOf(page, '#first-add', shot);
      const outside = await failure(v.clickAt(shot.width + 5, 10));
      assert.equal(outside.code, 'POINT_OUT_OF_BOUNDS', outside.message);
      // A number JSON cannot carry is refused in the words the Python package gets too.
      const nan = await failure(v.clickAt(Number.NaN, 10));
      assert.equal(nan.code, 'INVALID_ACTION', nan.message);
      assert.equal(nan.message, 'a pointer step: pick: invalid type: string "NaN", expected f64');
      const r = await v.clickAt(at.x, at.y, { observation: 'obs-1', intent: 'the cart gains a shirt' });
      assert.equal(r.verdict, 'MATCH', r.reason);
      assert.equal(r.record.action, 'click_at');
      assert.equal(r.record.value, `(${at.x}, ${at.y}) on obs-1`);
      assert.equal(r.observation?.id, 'obs-2', 'the step ends with a fresh observation');
      const stale = await failure(v.clickAt(at.x, at.y, { observation: 'obs-1' }));
      assert.equal(stale.code, 'STALE_OBSERVATION', stale.message);
      assert.match(stale.stack.split('\n')[1], /package-suite\.mjs/, 'the stack starts at the caller');
      assert.equal(await cartSize(page), 1, 'neither refused click was sent');
    });

    test('a point that shows another element now is TARGET_CHANGED, nothing pressed', async (t) => {
      const page = await lib.open(t, '/shop.html');
      const v = await lib.verifier(page);
      const shot = await v.screenshot();
      const at = await pointOf(page, '#catalogue button', shot);
      await page.evaluate(() => {
        const banner = document.createElement('button');
        banner.textContent = 'Accept cookies';
        banner.style.cssText = 'position:fixed;inset:0;z-index:9;opacity:0.9';
        document.body.append(banner);
      });
      const error = await failure(v.clickAt(at.x, at.y));
      assert.equal(error.code, 'TARGET_CHANGED', error.message);
      assert.match(error.message, /Accept cookies/);
      assert.equal(await cartSize(page), 0);
      assert.equal(error.observation?.id, 'obs-2');
    });

    test('a pointer drag between two points moves the task, judged on the element dragged', async (t) => {
      const page = await lib.open(t, '/shop.html');
      await page.evaluate(() => document.getElementById('todo').parentElement.scrollIntoView());
      const v = await lib.verifier(page);
      const shot = await v.screenshot();
      const from = await pointOf(page, '#task-invoice', shot);
      const to = await pointOf(page, '#done', shot);
      const r = await v.dragAt(from, { x: from.x, y: to.y + 4 }, { intent: 'the invoice task is done' });
      assert.equal(r.record.action, 'drag_at');
      assert.equal(r.verdict, 'MATCH', r.reason);
      assert.equal(await page.evaluate(() => document.getElementById('task-invoice').parentElement.id), 'done');
    });

    test('a drag whose destination leaves the page during the moves is TARGET_CHANGED, the button released over its start', async (t) => {
      // fixtures/drag-invalid.html removes the Sprint list on the third pointermove of a drag.
      const page = await lib.open(t, '/drag-invalid.html');
      const v = await lib.verifier(page);
      const error = await failure(v.dragTo({ role: 'listitem', name: 'Card A' }, { role: 'list', name: 'Sprint' }));
      assert.equal(error.code, 'TARGET_CHANGED', error.message);
      assert.match(error.message, /the drag's destination list\[Sprint\].* left the page after move 3 of the drag; the button was released and the drag abandoned/);
      const log = await page.evaluate(() => window.dragEvents);
      assert.equal(log[0], 'pointerdown Card A', String(log));
      assert.deepEqual(log.filter((l) => l.startsWith('pointerup')), ['pointerup buttons=0'], 'released once, before the step ended');
      assert.ok(log.includes('drop cancelled: no destination'), String(log));
      assert.equal(await page.evaluate(() => !!document.querySelector('#backlog #card-a')), true, 'Card A stays in Backlog');
    });

    test('typing goes into the field the click focused, is read back, and a sensitive text is in no output', async (t) => {
      const page = await lib.open(t, '/hostile/08-secret-echo.html');
      const traces = mkdtempSync(join(tmpdir(), 'prufe-traces-'));
      t.after(() => rmSync(traces, { recursive: true, force: true }));
      const v = await lib.verifier(page, { traceDir: traces, screenshots: 'all' });
      const lost = await failure(v.type('nowhere'));
      assert.equal(lost.code, 'FOCUS_LOST', lost.message);
      const shot = await v.screenshot();
      const at = await pointOf(page, '#password', shot);
      const focus = await v.clickAt(at.x, at.y);
      assert.equal(focus.verdict, 'MATCH', focus.reason);
      const output = [];
      const typed = await captureOutput(output, () => v.type(SECRET, { sensitive: true }).then((r) => r, (e) => e));
      assert.equal(typed.record.value, '[redacted]');
      assert.equal(typed.record.target, 'textbox[Password] in form[Security]');
      assert.equal(await page.evaluate(() => document.getElementById('password').value), SECRET);
      const key = await v.key('Tab');
      assert.equal(key.record.action, 'key');
      assert.match(key.reason, /^sent; every key released in reverse order; the focus is on /);
      const seen = [
        JSON.stringify([typed.record, key.record, typed.observation ? { ...typed.observation, png: null } : null]),
        typed.explain(),
        typed instanceof Error ? `${typed.message}\n${typed.stack}` : '',
        ...readdirSync(traces).map((f) => readFileSync(join(traces, f), 'latin1')),
        output.join(''),
      ].join('\n');
      assert.ok(!seen.includes(SECRET), 'the secret appears nowhere');
    });

    test('a key is pressed by its name however it is written; an unknown key is INVALID_ACTION, nothing sent', async (t) => {
      const page = await lib.open(t, '/shop.html');
      const v = await lib.verifier(page);
      const shot = await v.screenshot();
      const at = await pointOf(page, '#name', shot);
      assert.equal((await v.clickAt(at.x, at.y)).verdict, 'MATCH');
      const tab = await v.key('tab');
      assert.equal(tab.record.value, 'Tab');
      assert.match(tab.reason, /the focus is on combobox\[Shipping\]/);
      const back = await v.key('shift+tab');
      assert.equal(back.record.value, 'Shift+Tab');
      assert.match(back.reason, /the focus is on textbox\[Name\]/);
      const unknown = await failure(v.key('Hyper+a'));
      assert.equal(unknown.code, 'INVALID_ACTION', unknown.message);
      assert.match(unknown.message, /unknown key "Hyper"/);
      // A text's length is the machine's to check, in the words the CLI gives; nothing typed.
      for (const text of ['', 'x'.repeat(10_001)]) {
        const refused = await failure(v.type(text));
        assert.equal(refused.code, 'INVALID_ACTION', refused.message);
        assert.match(refused.message, /"text" must hold 1 to 10000 characters/);
      }
      assert.equal(await page.evaluate(() => document.getElementById('name').value), '');
      const pressed = await v.press({ role: 'textbox', name: 'Name' }, 'return', { intent: "'Order placed' appears" });
      assert.equal(pressed.verdict, 'MATCH', pressed.reason);
      assert.equal(pressed.record.value, 'Enter');
      await page.evaluate(() => { document.getElementById('status').textContent = ''; });
      const enter = await v.key('enter');
      assert.equal(enter.record.value, 'Enter');
      assert.equal(await page.evaluate(() => document.getElementById('status').textContent), 'Order placed');
    });

    test('an inverse that declares its own, or is a watch, is INVALID_ACTION, the list untouched', async (t) => {
      const page = await lib.open(t, '/reorder-refused.html');
      const v = await lib.verifier(page);
      const olwen = { role: 'listitem', name: 'Olwen' };
      const up = { action: { kind: 'press', key: 'Alt+ArrowUp', target: olwen } };
      const order = () => page.evaluate(() => [...document.querySelectorAll('#speakers > li')].map((li) => li.textContent));
      for (const [inverse, message] of [
        [[{ ...up, inverse: [up] }], /^inverse\[0\]: an inverse step cannot declare its own inverse/],
        [[up, { action: { kind: 'watch' } }], /^inverse\[1\]: watch cannot be nested/],
      ]) {
        const refused = await failure(v.press(olwen, 'Alt+ArrowDown', { intent: 'Olwen moves up one place', inverse }));
        assert.equal(refused.code, 'INVALID_ACTION', refused.message);
        assert.match(refused.message, message);
        assert.deepEqual(await order(), ['Aled', 'Bryn', 'Carys', 'Olwen', 'Rhys']);
      }
    });

    test('a press on a field without the focus focuses it first: a second Tab from the first field is a MATCH', async (t) => {
      const page = await lib.open(t, '/real/keys-widgets.html');
      const v = await lib.verifier(page);
      for (const round of [1, 2]) {
        const r = await v.press({ role: 'textbox', name: 'First name' }, 'Tab');
        assert.equal(r.verdict, 'MATCH', `${round}: ${r.reason}`);
        assert.match(r.reason, /focus moved to textbox\[Last name\]/);
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'last');
      }
    });

    test('a chord is pressed key by key as the machine splits it: Shift++, ctrl+shift+k, enter', async (t) => {
      const page = await lib.open(t, '/keys.html');
      const v = await lib.verifier(page);
      const sent = [];
      for (const chord of ['Shift++', 'ctrl+shift+k', 'enter']) sent.push((await v.key(chord)).record.value);
      assert.deepEqual(sent, ['Shift++', 'Control+Shift+k', 'Enter']);
      assert.deepEqual(await page.evaluate(() => window.keyEvents), CHORD_EVENTS);
    });

    test('a record scrubbed of a secret keeps its keys in the order the unscrubbed one has', async (t) => {
      const page = await lib.open(t, '/keys.html');
      const plain = await (await lib.verifier(page)).key('Tab');
      const v = await lib.verifier(await lib.open(t, '/keys.html'));
      await v.fill({ role: 'textbox', name: 'Text' }, SECRET, { sensitive: true });
      const guarded = await v.key('Tab');
      assert.ok(Object.keys(plain.record).length > 5, JSON.stringify(plain.record));
      assert.deepEqual(Object.keys(guarded.record), Object.keys(plain.record));
      assert.deepEqual(Object.keys(guarded.record.diff), Object.keys(plain.record.diff));
    });

    test('a wheel turn over a container scrolls it and says where it stands; a wait states what follows', async (t) => {
      const page = await lib.open(t, '/scroll-container.html');
      const v = await lib.verifier(page);
      const shot = await v.screenshot();
      const at = await pointOf(page, '#scroller', shot);
      const r = await v.scrollAt(at.x, at.y, 0, Math.round(200 / shot.scale.y));
      assert.equal(r.record.action, 'scroll_at');
      assert.equal(r.verdict, null);
      assert.match(r.reason, /^div#scroller in generic\[Rows\] scrolled from \(0, 0\) to \(0, \d+\)$/);
      assert.ok(await page.evaluate(() => document.getElementById('scroller').scrollTop > 0 && window.scrollY === 0));
      const late = await failure(v.waitFor({ kind: 'appears', role: 'listitem', name: 'Row 999', region: null }, { timeoutMs: 300 }));
      assert.equal(late.code, 'POSTCONDITION_TIMEOUT', late.message);
      assert.match(late.stack.split('\n')[1], /package-suite\.mjs/, 'the stack starts at the caller');
      const held = await v.waitFor({ kind: 'appears', role: 'listitem', name: 'Row 12', region: null }, { timeoutMs: 3000 });
      assert.equal(held.ok, true);
      assert.equal(late.observation?.id, 'obs-3', 'after a screenshot, a wait ends with a fresh one, failed or not');
      assert.equal(held.observation?.id, 'obs-4');
      const stale = await failure(v.scrollAt(at.x, at.y, 0, 100, { observation: shot.id }));
      assert.equal(stale.code, 'STALE_OBSERVATION', stale.message);
    });
  });

  describe(`prufe with ${lib.name}: library elements resolve strictly`, () => {
    test('an element whose description two elements share is TARGET_AMBIGUOUS, nothing done', async (t) => {
      const page = await lib.open(t, '/strict.html');
      // A click that does nothing is known to have done nothing at the settle's deadline.
      const v = await lib.verifier(page, { timeoutMs: 1000 });
      const error = await v.click(await lib.css(page, lib.name === 'Playwright' ? '.twin >> nth=0' : '.twin')).then(() => null, (e) => e);
      assert.ok(error instanceof PrufeError);
      assert.equal(error.code, 'TARGET_AMBIGUOUS', error.message);
      assert.equal(error.candidates?.length, 2);
      // A handle designates one element: the first Buy is told from the second by its region.
      if (lib.name === 'Puppeteer') {
        const r = await v.click(await lib.css(page, 'button')).catch((e) => e.record);
        assert.equal(r.target, 'button[Buy] in region[First]');
        assert.equal(r.verdict, 'MISMATCH', 'Buy does nothing');
      }
    });

    if (lib.name === 'Puppeteer') {
      test('a Puppeteer Locator, which cannot say how many it matches, is INVALID_TARGET, nothing done', async (t) => {
        const page = await lib.open(t, '/strict.html');
        const v = await lib.verifier(page);
        const error = await v.click(page.locator('#save')).then(() => null, (e) => e);
        assert.equal(error?.code, 'INVALID_TARGET', error?.message);
        assert.match(error.message, /ElementHandle/);
        assert.equal(await page.evaluate(() => document.getElementById('out').textContent), '', 'nothing was clicked');
      });
    }

    if (lib.name === 'Playwright') {
      test('a locator matching two elements is TARGET_AMBIGUOUS with both candidates', async (t) => {
        const page = await lib.open(t, '/strict.html');
        const v = await lib.verifier(page);
        const error = await v.click(page.getByRole('button', { name: 'Buy' })).then(() => null, (e) => e);
        assert.equal(error?.code, 'TARGET_AMBIGUOUS', error?.message);
        assert.deepEqual(error.candidates.map((c) => c.region), ['region[First]', 'region[Second]']);
        assert.match(error.explain(), /candidate .* button\[Buy\] in region\[Second\]/);
      });
    }

    test('a hidden element is TARGET_NOT_VISIBLE, a missing one TARGET_NOT_FOUND', async (t) => {
      const page = await lib.open(t, '/strict.html');
      const v = await lib.verifier(page, { timeoutMs: 300 });
      const hidden = await v.click(await lib.css(page, '#hidden')).then(() => null, (e) => e);
      assert.equal(hidden?.code, 'TARGET_NOT_VISIBLE', hidden?.message);
      if (lib.name === 'Playwright') {
        const missing = await v.click(await lib.css(page, '#nothing')).then(() => null, (e) => e);
        assert.equal(missing?.code, 'TARGET_NOT_FOUND', missing?.message);
      }
      const bad = await v.click({ role: 'button', name: 'Save', label: 'x' }).then(() => null, (e) => e);
      assert.equal(bad?.code, 'INVALID_TARGET');
      // The short wait above is for the refusals; a step is given the usual one.
      const usual = await lib.verifier(page);
      const r = await usual.click(await lib.css(page, '#save'), { intent: 'saved' });
      assert.equal(r.verdict, 'MATCH', r.reason);
      assert.equal(r.target, 'button[Save] in main');
    });

    test('a hidden drag destination is named by its record and left to the machine, which refuses it', async (t) => {
      const page = await lib.open(t, '/strict.html');
      const v = await lib.verifier(page, { timeoutMs: 300 });
      // As a click's target, a hidden element is refused by the package's check.
      const clicked = await v.click(await lib.css(page, '#zone')).then(() => null, (e) => e);
      assert.equal(clicked?.code, 'TARGET_NOT_VISIBLE', clicked?.message);
      assert.match(clicked.message, /is hidden \(region\[Drop zone\]/);
      // As a drag's destination (a zone shown once a drag starts), it is named and the step
      // runs: here the zone never shows, and the machine says so in its own words.
      const dragged = await v.dragTo(await lib.css(page, '#save'), await lib.css(page, '#zone')).then(() => null, (e) => e);
      assert.equal(dragged?.code, 'TARGET_NOT_VISIBLE', dragged?.message);
      assert.match(dragged.message, /^no visible element matches region\[Drop zone\]/);
      assert.equal(await page.evaluate(() => document.getElementById('out').textContent), '', 'nothing was pressed');
    });

    test('the judge decides an AMBIGUOUS effect only, and its answer is recorded', async (t) => {
      const page = await lib.open(t, '/confirm-dialog.html');
      const asked = [];
      const v = await lib.verifier(page, {
        judge: async (question) => { asked.push(question); return { yes: true, detail: 'YES: the account section is gone' }; },
      });
      assert.equal((await v.click({ role: 'button', name: 'Delete account' })).verdict, 'MATCH');
      assert.equal(asked.length, 0, 'a MATCH is never put to the judge');
      const r = await v.click({ role: 'button', name: 'Confirm delete' });
      assert.equal(r.verdict, 'AMBIGUOUS');
      assert.equal(r.ok, true);
      assert.equal(r.record.arbiter, 'YES: the account section is gone');
      assert.equal(asked.length, 1);
      assert.equal(asked[0].action, 'click');
      assert.ok(asked[0].observed.length > 0);
    });

    test('the judge is asked the machine question, scrubbed of a secret given in an earlier step', async (t) => {
      const page = await lib.open(t, '/confirm-dialog.html');
      const asked = [];
      const v = await lib.verifier(page, {
        timeoutMs: 2000,
        judge: async (question) => { asked.push(question); return { yes: true }; },
      });
      // Given as sensitive in a step that found no field: a secret of the session from then on.
      const missed = await v.fill({ role: 'textbox', name: 'Recovery phrase' }, 'Account deleted', { sensitive: true }).then(() => null, (e) => e);
      assert.equal(missed?.code, 'TARGET_NOT_FOUND');
      assert.equal((await v.click({ role: 'button', name: 'Delete account' })).verdict, 'MATCH');
      const r = await v.click({ role: 'button', name: 'Confirm delete' });
      assert.equal(r.verdict, 'AMBIGUOUS');
      assert.equal(asked.length, 1);
      const sent = JSON.stringify(asked[0]);
      assert.ok(!sent.includes('Account deleted'), sent);
      assert.ok(asked[0].observed.some((line) => line.includes('[redacted]')), sent);
      assert.ok(asked[0].chat.messages[1].content.includes('[redacted]'), 'the prompt is built from the scrubbed question');
      assert.ok(!JSON.stringify(r.record).includes('Account deleted'));
    });

    test('a secret the page echoes everywhere appears in no result, error, trace or output', async (t) => {
      const page = await lib.open(t, '/hostile/08-secret-echo.html');
      const traces = mkdtempSync(join(tmpdir(), 'prufe-traces-'));
      t.after(() => rmSync(traces, { recursive: true, force: true }));
      const v = await lib.verifier(page, { traceDir: traces, timeoutMs: 2000 });
      const output = [];
      const outcome = await captureOutput(output, () => v.fill({ role: 'textbox', name: 'Password' }, SECRET, { sensitive: true }).then((r) => r, (e) => e));
      const seen = [
        JSON.stringify(outcome.record ?? outcome),
        outcome.explain(),
        outcome instanceof Error ? `${outcome.message}\n${outcome.stack}` : '',
        ...readdirSync(traces).map((f) => readFileSync(join(traces, f), 'utf8')),
        output.join(''),
      ].join('\n');
      assert.ok(outcome.record.lines.length > 0, 'the echoes were observed');
      assert.ok(!seen.includes(SECRET) && !seen.includes(encodeURIComponent(SECRET)), 'the secret appears nowhere');
      assert.equal(await page.evaluate(() => document.title.length > 0), true);
    });

    test('a native dialog is dismissed, as the CLI does, and reported with the step', async (t) => {
      const page = await lib.open(t, '/hostile/20-native-dialogs.html');
      const v = await lib.verifier(page);
      const r = await v.click({ role: 'button', name: 'Save' }, { intent: 'saved' });
      assert.equal(r.verdict, 'MATCH', r.reason);
      assert.deepEqual(r.record.dialogs, ['alert "Saved!" dismissed']);
      assert.match(r.explain(), /Dialog: {4}alert "Saved!" dismissed/);
    });

    test('a dialog the caller answers is recorded with its answer, and a step lists at most 20', async (t) => {
      const page = await lib.open(t, '/hostile/20-native-dialogs.html');
      const v = await lib.verifier(page);
      const accept = (/** @type {any} */ d) => d.accept();
      page.on('dialog', accept);
      const deleted = await v.click({ role: 'button', name: 'Delete item' }, { intent: 'the item is deleted' });
      page.off('dialog', accept);
      assert.equal(deleted.verdict, 'MATCH', deleted.reason);
      assert.deepEqual(deleted.record.dialogs, ['confirm "Delete item?" accepted']);
      await page.evaluate(() => {
        document.getElementById('save')?.addEventListener('click', () => { for (let i = 0; i < 25; i++) alert(`again ${i}`); });
      });
      const many = await v.click({ role: 'button', name: 'Save' }, { intent: 'saved' });
      assert.equal(many.record.dialogs.length, 20);
      assert.deepEqual(many.record.dialogs.slice(0, 2), ['alert "Saved!" dismissed', 'alert "again 0" dismissed']);
    });

    test('the engine is invisible to the page, and a page that spoofs window.prufe changes nothing', async (t) => {
      const page = await lib.open(t, '/spoof.html');
      const v = await lib.verifier(page, { maxAttempts: 1 });
      assert.equal(await v.click({ role: 'button', name: 'Add Shirt M' }).then((r) => r.verdict), 'MATCH');
      const lie = await v.click({ role: 'button', name: 'Add Socks S' }).then(() => null, (e) => e);
      assert.equal(lie?.code, 'VERIFICATION_FAILED');
      assert.match(lie.record.reason, /Trousers L/);
      const other = await lib.open(t, '/shop.html');
      await lib.verifier(other);
      assert.equal(await other.evaluate(() => typeof window.prufe), 'undefined');
    });
  });
}

/** Runs `fn` with everything written to stdout and stderr also collected in `into`. */
async function captureOutput(into, fn) {
  const writes = [process.stdout.write, process.stderr.write];
  const tee = (original) => function (chunk, ...rest) {
    into.push(String(chunk));
    return original.call(this, chunk, ...rest);
  };
  process.stdout.write = tee(writes[0]);
  process.stderr.write = tee(writes[1]);
  try {
    return await fn();
  } finally {
    [process.stdout.write, process.stderr.write] = writes;
  }
}
