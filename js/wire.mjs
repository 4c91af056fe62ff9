// The compact wire form of a snapshot, read outside the page (Node, a driver process).
//
//   const snapshot = decodeSnapshot(await page.evaluate(() => prufe.snapshot({ wire: true })));
//
// gives exactly what `prufe.snapshot()` returns in the page, for about an eighth of the bytes
// moved out of it. The layout is documented and written by src/core/wire.rs (which also
// decodes it for the native harness); this file only reverses it.

const TRISTATE = [null, false, true, 'mixed'];
const BOOL = [null, false, true, undefined];

/** @param {string} what */
function invalid(what) {
  const error = new Error(`not a wire snapshot: ${what}`);
  error.name = 'PrufeError';
  return Object.assign(error, { code: 'INVALID_SNAPSHOT' });
}

/**
 * A string field of a row's tail: `null` when cut or written `0`.
 * @param {unknown} v @param {string} what @returns {string | null}
 */
function optional(v, what) {
  if (v === undefined || v === 0) return null;
  if (typeof v !== 'string') throw invalid(what);
  return v;
}

/**
 * The snapshot a wire string holds. Throws an Error with `code: 'INVALID_SNAPSHOT'` for
 * anything else.
 * @param {string} text
 * @returns {Prufe.Snapshot}
 */
export function decodeSnapshot(text) {
  /** @type {any} */
  let w;
  try {
    w = JSON.parse(text);
  } catch (error) {
    throw invalid(String(error));
  }
  if (!w || typeof w !== 'object' || w.wire !== 2) throw invalid('missing or unknown layout version');
  const { strings, tag, elements, texts } = w;
  if (!Array.isArray(strings) || !Array.isArray(elements) || !Array.isArray(texts) || typeof tag !== 'string') {
    throw invalid('missing strings, elements or texts');
  }
  /** @param {unknown} i */
  const str = (i) => {
    const s = typeof i === 'number' ? strings[i] : undefined;
    if (typeof s !== 'string') throw invalid(`string index ${i}`);
    return s;
  };
  // One row: [ref, role, name, region, flags, text?, href?, value?, level?, within?,
  // valueHash?, frame?] (src/core/wire.rs). Each shape of element is one object literal, in
  // the key order of `prufe.snapshot()`'s objects.
  let last = 0;
  const out = new Array(elements.length);
  for (let i = 0; i < elements.length; i++) {
    /** @type {any[]} */
    const r = elements[i];
    if (!Array.isArray(r) || r.length < 5 || r.length > 12) throw invalid('element row');
    const n = r.length;
    const f = r[4];
    if ((f & 0xffff) !== f) throw invalid(`flags ${f}`);
    let ref = r[0];
    if (typeof ref === 'number') {
      if (!Number.isInteger(ref) || last + 1 + ref < 0) throw invalid(`ref ${ref}`);
      last += ref + 1;
      ref = `e${last}-${tag}`;
    } else if (typeof ref !== 'string') throw invalid('ref');
    const name = r[2];
    if (typeof name !== 'string') throw invalid('name');
    const selected = BOOL[(f >> 10) & 3];
    const expanded = BOOL[(f >> 12) & 3];
    if (selected === undefined || expanded === undefined) throw invalid(`flags ${f}`);
    const role = str(r[1]);
    const region = str(r[3]);
    const text = n > 5 ? optional(r[5], 'text') : null;
    const href = n > 6 ? optional(r[6], 'href') : null;
    const value = n > 7 ? optional(r[7], 'value') : null;
    const level = n > 8 ? r[8] : null;
    if (level !== null && !Number.isInteger(level)) throw invalid('level');
    const within = n > 9 ? optional(r[9], 'within') : null;
    const valueHash = n > 10 ? optional(r[10], 'valueHash') : null;
    const frame = n > 11 ? str(r[11]) : '';
    const checked = TRISTATE[(f >> 6) & 3];
    const pressed = TRISTATE[(f >> 8) & 3];
    /** @type {any} */
    let e;
    if (text === null && within === null && valueHash === null) {
      e = { ref, role, name, region, frame, href, value, checked, pressed, selected, expanded, disabled: (f & 1) !== 0,
        visible: (f & 2) !== 0, inViewport: (f & 4) !== 0, focused: (f & 8) !== 0, sensitive: (f & 16) !== 0 };
    } else {
      e = { ref, role, name };
      if (text !== null) e.text = text;
      e.region = region;
      if (within !== null) e.within = within;
      e.frame = frame;
      e.href = href;
      e.value = value;
      if (valueHash !== null) e.valueHash = valueHash;
      e.checked = checked;
      e.pressed = pressed;
      e.selected = selected;
      e.expanded = expanded;
      e.disabled = (f & 1) !== 0;
      e.visible = (f & 2) !== 0;
      e.inViewport = (f & 4) !== 0;
      e.focused = (f & 8) !== 0;
      e.sensitive = (f & 16) !== 0;
    }
    if (level !== null) e.level = level;
    if (f & 32) e.opaque = true;
    if (f & (1 << 14)) e.busy = true;
    if (f & (1 << 15)) e.clickable = true;
    out[i] = e;
  }
  const outTexts = texts.map((/** @type {any[]} */ t) => {
    if (!Array.isArray(t) || t.length !== 4 || typeof t[0] !== 'string' || typeof t[1] !== 'string') {
      throw invalid('text row');
    }
    return { kind: /** @type {Prufe.TextKind} */ (t[0]), text: t[1], region: str(t[2]), frame: str(t[3]) };
  });
  return { context: w.context, hasMore: w.hasMore === true, elements: out, texts: outTexts };
}
