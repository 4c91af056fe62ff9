// The compact wire form of a snapshot, read outside the page (Node, a driver process).
//
//   const snapshot = decodeSnapshot(await page.evaluate(() => prufe.snapshot({ wire: true })));
//
// gives exactly what `prufe.snapshot()` returns in the page, for about a sixth of the bytes
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
  if (!w || typeof w !== 'object' || w.wire !== 1) throw invalid('missing or unknown layout version');
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
  /** @param {unknown} v @param {string} what @returns {string | null} */
  const opt = (v, what) => {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw invalid(what);
    return v;
  };
  const out = elements.map((/** @type {any[]} */ r) => {
    if (!Array.isArray(r) || r.length < 5 || r.length > 12) throw invalid('element row');
    const f = r[4];
    if (!Number.isInteger(f) || f < 0 || f >= 1 << 16) throw invalid(`flags ${f}`);
    const ref = typeof r[0] === 'number' ? `e${r[0]}-${tag}` : r[0];
    if (typeof ref !== 'string' || typeof r[2] !== 'string') throw invalid('ref or name');
    const selected = BOOL[(f >> 10) & 3];
    const expanded = BOOL[(f >> 12) & 3];
    if (selected === undefined || expanded === undefined) throw invalid(`flags ${f}`);
    /** @type {any} */
    const e = { ref, role: str(r[1]), name: r[2] };
    const text = opt(r[10], 'text');
    if (text !== null) e.text = text;
    e.region = str(r[3]);
    const within = opt(r[11], 'within');
    if (within !== null) e.within = within;
    e.frame = r.length > 5 ? str(r[5]) : '';
    e.href = opt(r[6], 'href');
    e.value = opt(r[7], 'value');
    const valueHash = opt(r[8], 'valueHash');
    if (valueHash !== null) e.valueHash = valueHash;
    e.checked = TRISTATE[(f >> 6) & 3];
    e.pressed = TRISTATE[(f >> 8) & 3];
    e.selected = selected;
    e.expanded = expanded;
    e.disabled = (f & 1) !== 0;
    e.visible = (f & 2) !== 0;
    e.inViewport = (f & 4) !== 0;
    e.focused = (f & 8) !== 0;
    e.sensitive = (f & 16) !== 0;
    if (r[9] !== undefined && r[9] !== null) {
      if (!Number.isInteger(r[9])) throw invalid('level');
      e.level = r[9];
    }
    if (f & 32) e.opaque = true;
    if (f & (1 << 14)) e.busy = true;
    if (f & (1 << 15)) e.clickable = true;
    return e;
  });
  const outTexts = texts.map((/** @type {any[]} */ t) => {
    if (!Array.isArray(t) || t.length !== 4 || typeof t[0] !== 'string' || typeof t[1] !== 'string') {
      throw invalid('text row');
    }
    return { kind: /** @type {Prufe.TextKind} */ (t[0]), text: t[1], region: str(t[2]), frame: str(t[3]) };
  });
  return { context: w.context, hasMore: w.hasMore === true, elements: out, texts: outTexts };
}
