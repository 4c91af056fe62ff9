// The accessibility-tree oracle: for every observable, visible element prufe reports on every
// fixture page, compare its role and name with Chromium's own accessibility tree.
//
// Each page under fixtures/ is served on 127.0.0.1 and loaded in headless Chromium with
// js/dist/prufe.js injected before any page script, into an isolated world as the harness
// does. prufe.snapshot() lists the elements;
// prufe.element(ref) gives each live node, whose backend node id (DOM.describeNode) selects
// Chromium's node (Accessibility.getPartialAXTree). Roles are compared after mapping
// Chromium's internal role names to ARIA ones; names after whitespace normalisation.
// Elements reported with `visible: false` are left out: Chromium prunes them from its tree.
// Elements inside an `aria-hidden="true"` or `inert` subtree (through shadow hosts and frame
// elements) are not counted either: prufe observes them by design (SPEC DIFFERENCE, see
// src/dom/walk/mod.rs: a modal hides the page behind it from assistive technology, not from
// a person), Chromium drops them; their differences are listed all the same.
//
// Prints agreement for role and for name and writes every disagreement, with the reason we
// know for it, to target/oracle-disagreements.md (a test run leaves the tree as it was; some
// rows depend on timing). Fails below 98 % on either. The committed report is written with
// PRUFE_ORACLE_REPORT=docs/oracle-disagreements.md.
//
//   node --test tests/js/oracle.mjs      (or: node tests/js/oracle.mjs)

import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import puppeteer from 'puppeteer-core';
import { BUNDLE, CHROMIUM, CHROMIUM_FLAGS, FIXTURES, ROOT, bundleSource, freshProfile, serve } from './support/env.mjs';


const TARGET = 0.98;
/**
 * The pages of component libraries (fixtures/corpus) are measured apart: they show what the
 * engine does not read yet (names Chromium computes from CSS text-transform, a React Aria
 * table's header row), listed below as UNEXPLAINED. Their agreement is held to the floor
 * last measured, so it can only rise (92.53 % for names when they were added; 97.70 % once
 * text slotted into web components' shadow roots named their controls; 95.91 % once Ionic's
 * page joined: Material Design's uppercase buttons and segment tabs, which Chromium names in
 * capitals from CSS text-transform, and its range, whose `aria-labelledby` label holds the
 * slider itself, which prufe reads as an embedded control's value, `Brightness 50`, as
 * Playwright's getByRole does, and Chromium leaves out, `Brightness`; the floor sits one
 * element under it, since a row or two depends on timing; 93.06 % once the grid page joined:
 * Chromium names every row of AG Grid, MUI X's grid and the calendar from its cells, and
 * prufe reads a row as a nameless container known by its text, the names of its own controls
 * left to them).
 */
const LIBRARY_PAGES = 'corpus/';
const LIBRARY_FLOOR = { role: 0.99, name: 0.929 };
const REPORT = process.env.PRUFE_ORACLE_REPORT
  ? resolve(ROOT, process.env.PRUFE_ORACLE_REPORT)
  : join(ROOT, 'target', 'oracle-disagreements.md');

/** Pages the engine cannot run in, or that are parts of other pages, with the reason. */
const SKIPPED = {
  'drivers/csp-no-wasm.html': 'its CSP refuses WebAssembly: the engine does not load (that is what the page tests)',
  'hostile/04-csp-no-wasm.html': 'its CSP refuses WebAssembly: the engine does not load (that is what the page tests)',
  'hostile/05-huge-dom.html': 'a 100,000-node page: the walk stops at its budget by design, so the element list is partial',
};

/** Chromium's internal role names that are not ARIA's, mapped to the ARIA role prufe reports. */
const CHROMIUM_ROLES = {
  image: 'img',
  iframe: 'iframe',
  iframepresentational: 'iframe',
  rootwebarea: 'document',
  webarea: 'document',
  menulistpopup: 'listbox',
  menulistoption: 'option',
  listboxoption: 'option',
  genericcontainer: 'generic',
  section: 'region',
  graphics_document: 'img',
  'graphics-document': 'img',
  graphicsdocument: 'img',
  svgroot: 'img',
  labeltext: 'generic',
  none: 'none',
  presentation: 'none',
};

/** Known reasons for a difference, first match wins. Each is a deliberate choice or a known
 * Chromium behaviour; anything else is reported as unexplained. */
const REASONS = [
  [(d) => d.ariaHidden,
    'SPEC DIFFERENCE: inside an aria-hidden or inert subtree; prufe observes rendered content there (a modal hides the page behind it from assistive technology, not from a person), Chromium drops it. Not counted'],
  [(d) => d.field === 'name' && d.clickable,
    'SPEC DIFFERENCE: a role-less clickable (onclick, tabindex or a pointer cursor) is named from its content so it can be a target; Chromium names no generic'],
  [(d) => d.field === 'role' && d.clickable,
    'a role-less clickable is reported as generic; Chromium leaves it out or gives it a role of its own (a focusable element)'],
  [(d) => d.field === 'role' && d.ours === 'button' && d.chromium === 'disclosuretriangle',
    'SPEC DIFFERENCE: `summary` has no ARIA role; Chromium exposes its own DisclosureTriangle, prufe a button (what a person clicks to expand)'],
  [(d) => d.field === 'role' && d.ours === 'textbox' && ['date', 'inputtime', 'datetime', 'colorwell', 'month', 'week', 'time'].includes(d.chromium),
    'SPEC DIFFERENCE: date, time and colour inputs are Chromium picker roles; prufe reports a textbox (a field a person fills)'],
  [(d) => d.field === 'role' && d.ours === 'generic' && d.opaque,
    'an opaque host (closed shadow root) is reported as generic with opaque: true, so it is visible as unreadable; Chromium leaves a generic host out of its tree'],
  [(d) => d.field === 'name' && d.path.endsWith('18-name-flicker.html'),
    'the page rewrites this name on every animation frame (that is what it tests): Chromium\'s tree is read frames after prufe\'s snapshot'],
  [(d) => d.field === 'role' && d.chromium === 'ignored',
    'Chromium ignores the node in its tree while prufe reports it'],
  [(d) => d.field === 'role' && ['sectionheader', 'sectionfooter'].includes(d.chromium),
    'Chromium exposes header/footer inside sectioning content with its own sectionheader/sectionfooter roles; ARIA and prufe have none (generic)'],
  [(d) => d.field === 'name' && /[\uE000-\uF8FF]/.test(d.chromium) && d.ours === d.chromium.replace(/[\uE000-\uF8FF]/g, '').replace(/\s+/g, ' ').trim(),
    'SPEC DIFFERENCE: icon-font glyphs (private use area) in CSS generated content carry no words; prufe drops them'],
  [(d) => d.field === 'name' && d.ours.endsWith('…') && d.chromium.startsWith(d.ours.slice(0, -1)),
    'names are capped at 500 characters (limits::MAX_TEXT_CHARS) with an ellipsis'],
  [(d) => d.field === 'name' && d.ours.includes('[redacted]'),
    'a secret echoed in the name is redacted by design (Chromium\'s name shows it; written here as [secret])'],
  [(d) => d.field === 'name' && d.path === 'engine/slots.html' && d.chromium.startsWith(`${d.ours} `),
    'Chromium: text slotted into a slot that is not rendered (display: none on the slot or on its wrapper in the shadow tree) still names the control; prufe leaves out what is not rendered, as accname\'s hidden rule says'],
  [(d) => d.field === 'name' && d.role === 'iframe',
    'a frame element: Chromium names it from its document when untitled; prufe only from title/aria attributes'],
];

function normalize(text) {
  return String(text ?? '').replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

function chromiumRole(node, error) {
  if (error) return `(${error})`;
  if (!node || node.ignored) return 'ignored';
  const raw = String(node.role?.value ?? '').toLowerCase();
  return CHROMIUM_ROLES[raw] ?? raw;
}

function pages(dir = FIXTURES) {
  const out = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...pages(full));
    else if (entry.endsWith('.html')) out.push(relative(FIXTURES, full));
  }
  return out;
}

const WORLD = 'prufe-oracle';

async function evaluate(cdp, contextId, expression) {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, contextId, returnByValue: true, awaitPromise: true });
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  return result.value;
}

/** Compares one page; returns per-element comparisons. The engine runs in an isolated world,
 * as the harness injects it, so a page patching DOM prototypes does not blind it. */
async function comparePage(browser, server, path) {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: 1280, height: 900 });
    const cdp = await page.createCDPSession();
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const contexts = [];
    cdp.on('Runtime.executionContextCreated', ({ context }) => {
      if (context.name === WORLD && context.auxData?.frameId === frameTree.frame.id) contexts.push(context.id);
    });
    await cdp.send('Runtime.enable');
    await cdp.send('Page.enable');
    await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: bundleSource(), worldName: WORLD });
    await page.goto(server.url('/' + path), { waitUntil: 'load', timeout: 20_000 });
    await cdp.send('DOM.enable');
    await cdp.send('Accessibility.enable');
    const contextId = contexts.at(-1);
    if (contextId === undefined) throw new Error('the isolated world was not created');
    await evaluate(cdp, contextId, 'prufe.ready');
    // Freeze the page's clock (timers, animation frames): pages that mutate forever would
    // otherwise change between prufe's snapshot and Chromium's tree.
    await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'pause' });
    // The snapshot and every ref's node in one task: nothing of the page runs in between.
    const snapshot = await evaluate(cdp, contextId, `(() => {
      const s = prufe.snapshot({ maxElements: 5000 });
      globalThis.__oracleNodes = s.elements.map((e) => { try { return prufe.element(e.ref); } catch (x) { return String(x.code || x); } });
      // Inside aria-hidden="true" or inert, through shadow hosts and frame elements.
      const hiddenToAT = (node) => {
        for (let x = node; x; ) {
          if (x.nodeType === 1 && (x.hasAttribute('inert') || (x.getAttribute('aria-hidden') ?? '').trim().toLowerCase() === 'true')) return true;
          if (x.nodeType === 9) x = x.defaultView?.frameElement ?? null;
          else if (x.nodeType === 11) x = x.host ?? null;
          else x = x.parentNode;
        }
        return false;
      };
      s.ariaHidden = globalThis.__oracleNodes.map((n) => typeof n === 'object' && n !== null && hiddenToAT(n));
      return s;
    })()`);
    const rows = [];
    for (const [i, element] of snapshot.elements.entries()) {
      if (!element.visible) continue;
      const ariaHidden = !!snapshot.ariaHidden[i];
      const handle = await cdp.send('Runtime.evaluate', { expression: `globalThis.__oracleNodes[${i}]`, contextId });
      if (handle.exceptionDetails || !handle.result.objectId) {
        rows.push({ path, element, ariaHidden, ax: null, error: `prufe.element(ref) failed: ${handle.result?.value ?? 'no node'}` });
        continue;
      }
      const { node } = await cdp.send('DOM.describeNode', { objectId: handle.result.objectId });
      let ax = null;
      try {
        const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { backendNodeId: node.backendNodeId, fetchRelatives: false });
        ax = nodes.find((n) => n.backendDOMNodeId === node.backendNodeId) ?? nodes[0] ?? null;
      } catch (error) {
        rows.push({ path, element, ariaHidden, ax: null, error: String(error.message ?? error) });
        continue;
      }
      rows.push({ path, element, ariaHidden, ax });
      await cdp.send('Runtime.releaseObject', { objectId: handle.result.objectId });
    }
    await cdp.detach();
    return rows;
  } finally {
    await page.close();
  }
}

/** Chromium's name holds the page's secrets prufe redacted: never write them out. Where the
 * names differ only by the redactions, Chromium's is shown redacted the same way. */
function withoutSecrets(ours, theirs) {
  if (!ours.includes('[redacted]')) return theirs;
  const pattern = new RegExp('^' + ours.split('[redacted]').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+') + '$');
  return pattern.test(theirs) ? ours.replaceAll('[redacted]', '[secret]') : '(withheld: it holds a secret prufe redacted)';
}

function reasonFor(d) {
  for (const [match, reason] of REASONS) if (match(d)) return reason;
  return 'UNEXPLAINED';
}

function escapeCell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 120);
}

async function run() {
  const server = await serve();
  const profile = freshProfile();
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS.filter((f) => !f.startsWith('--headless')),
    userDataDir: profile.dir,
  });
  const all = [];
  const skipped = [];
  const failed = [];
  try {
    for (const path of pages()) {
      if (SKIPPED[path]) {
        skipped.push([path, SKIPPED[path]]);
        continue;
      }
      try {
        all.push(...(await comparePage(browser, server, path)));
      } catch (error) {
        failed.push([path, String(error.message ?? error).split('\n')[0]]);
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await profile.remove();
  }

  const disagreements = [];
  let roleAgree = 0;
  let nameAgree = 0;
  let nameSkipped = 0;
  const counted = all.filter((row) => !row.ariaHidden);
  const hiddenRows = all.filter((row) => row.ariaHidden);
  for (const row of hiddenRows) {
    const theirRole = chromiumRole(row.ax, row.error);
    const ourName = normalize(row.element.name);
    const theirName = row.error ? `(${row.error})` : normalize(row.ax?.name?.value);
    const base = { path: row.path, role: row.element.role, name: ourName, ariaHidden: true };
    if (row.element.role !== theirRole) disagreements.push({ ...base, field: 'role', ours: row.element.role, chromium: theirRole });
    if (ourName !== theirName) disagreements.push({ ...base, field: 'name', ours: ourName, chromium: withoutSecrets(ourName, theirName) });
  }
  for (const row of counted) {
    const ourRole = row.element.role;
    const theirRole = chromiumRole(row.ax, row.error);
    const ourName = normalize(row.element.name);
    const theirName = row.error ? `(${row.error})` : normalize(row.ax?.name?.value);
    const base = { path: row.path, role: ourRole, name: ourName, opaque: !!row.element.opaque, clickable: !!row.element.clickable };
    if (ourRole === theirRole) roleAgree++;
    else disagreements.push({ ...base, field: 'role', ours: ourRole, chromium: theirRole });
    // A clickable's name is its content by design (SPEC DIFFERENCE: Chromium names no generic):
    // listed below, not counted for or against the name agreement.
    if (row.element.clickable) nameSkipped++;
    else if (ourName === theirName) nameAgree++;
    if (ourName !== theirName) disagreements.push({ ...base, field: 'name', ours: ourName, chromium: withoutSecrets(ourName, theirName) });
  }
  for (const d of disagreements) d.reason = reasonFor(d);
  // The agreement of the pages written here, and apart from it the component libraries'.
  const agreement = (rows) => {
    const roles = rows.filter((r) => r.element.role === chromiumRole(r.ax, r.error)).length;
    const named = rows.filter((r) => !r.element.clickable);
    const names = named.filter((r) => normalize(r.element.name) === (r.error ? `(${r.error})` : normalize(r.ax?.name?.value))).length;
    return { n: rows.length, roles, named: named.length, names, role: rows.length ? roles / rows.length : 0, name: named.length ? names / named.length : 0 };
  };
  const library = agreement(counted.filter((r) => r.path.startsWith(LIBRARY_PAGES)));
  const own = agreement(counted.filter((r) => !r.path.startsWith(LIBRARY_PAGES)));
  const n = counted.length;
  const rolePct = n ? roleAgree / n : 0;
  const named = n - nameSkipped;
  const namePct = named ? nameAgree / named : 0;
  const pct = (x) => (100 * x).toFixed(2) + ' %';

  const lines = [
    '# Oracle disagreements',
    '',
    'Written by `tests/js/oracle.mjs`: every observable, visible element prufe reports on every page',
    'under `fixtures/`, compared with Chromium\'s accessibility tree (CDP `Accessibility.getPartialAXTree`).',
    '',
    `- Chromium: ${browser.process()?.spawnfile ?? CHROMIUM}; bundle: ${relative(ROOT, BUNDLE)}`,
    `- Elements compared: ${n} on ${new Set(counted.map((r) => r.path)).size} pages`,
    `- Not counted: ${hiddenRows.length} visible elements inside aria-hidden or inert subtrees (SPEC DIFFERENCE: prufe observes them, Chromium drops them; their differences are listed)`,
    `- Role agreement: ${roleAgree}/${n} = ${pct(rolePct)}`,
    `- Name agreement: ${nameAgree}/${named} = ${pct(namePct)} (${nameSkipped} clickables named from their content by design not counted; their differences are listed)`,
    `- Pages written here: role ${own.roles}/${own.n} = ${pct(own.role)}, name ${own.names}/${own.named} = ${pct(own.name)} (held to ${pct(TARGET)})`,
    `- Component libraries' pages (\`fixtures/${LIBRARY_PAGES}\`): role ${library.roles}/${library.n} = ${pct(library.role)}, name ${library.names}/${library.named} = ${pct(library.name)} (held to the floor of ${pct(LIBRARY_FLOOR.role)} and ${pct(LIBRARY_FLOOR.name)})`,
    '',
    '## Disagreements',
    '',
    disagreements.length ? '| page | prufe element | field | prufe | Chromium | reason |' : 'None.',
    ...(disagreements.length ? ['|---|---|---|---|---|---|'] : []),
    ...disagreements.map((d) => `| ${d.path} | ${escapeCell(`${d.role}[${d.name}]`)} | ${d.field} | ${escapeCell(d.ours)} | ${escapeCell(d.chromium)} | ${escapeCell(d.reason)} |`),
    '',
    '## Pages not compared',
    '',
    ...(skipped.length || failed.length ? [] : ['None.']),
    ...skipped.map(([p, why]) => `- ${p}: ${why}`),
    ...failed.map(([p, why]) => `- ${p}: could not be loaded or observed (${escapeCell(why)})`),
    '',
  ];
  mkdirSync(dirname(REPORT), { recursive: true });
  writeFileSync(REPORT, lines.join('\n'));
  console.log(`oracle: ${n} elements on ${new Set(counted.map((r) => r.path)).size} pages (${hiddenRows.length} inside aria-hidden/inert not counted); role ${pct(rolePct)}, name ${pct(namePct)}; ${disagreements.length} disagreements (${disagreements.filter((d) => d.reason === 'UNEXPLAINED').length} unexplained) -> ${relative(ROOT, REPORT)}`);
  return { n, rolePct, namePct, failed, own, library };
}

test('prufe roles and names agree with Chromium\'s accessibility tree', { timeout: 600_000 }, async () => {
  const { n, own, library } = await run();
  assert.ok(n > 200, `only ${n} elements compared`);
  assert.ok(own.role >= TARGET, `role agreement ${(100 * own.role).toFixed(2)} % < ${100 * TARGET} %`);
  assert.ok(own.name >= TARGET, `name agreement ${(100 * own.name).toFixed(2)} % < ${100 * TARGET} %`);
  assert.ok(library.n > 100, `only ${library.n} elements of the component libraries' pages compared`);
  assert.ok(library.role >= LIBRARY_FLOOR.role, `libraries' role agreement ${(100 * library.role).toFixed(2)} % < ${100 * LIBRARY_FLOOR.role} %`);
  assert.ok(library.name >= LIBRARY_FLOOR.name, `libraries' name agreement ${(100 * library.name).toFixed(2)} % < ${100 * LIBRARY_FLOOR.name} %`);
});
