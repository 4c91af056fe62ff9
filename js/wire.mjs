// The compact wire form of a snapshot, read outside the page (Node, a driver process).
//
//   const snapshot = decodeSnapshot(await page.evaluate(() => prufe.snapshot({ wire: true })));
//
// gives exactly what `prufe.snapshot()` returns in the page, for about an eighth of the bytes
// moved out of it. A reader that holds a snapshot of the same document asks for a delta
// against it and applies it here:
//
//   const wire = await page.evaluate((base) => prufe.snapshot({ wire: true, base }), snapshotId(held));
//   held = decodeSnapshot(wire, held);
//
// The engine answers with the full form when it no longer keeps that snapshot. The layouts
// are documented and written by src/core/wire.rs and src/core/wire_delta.rs (which also
// decode them for the native harness); this file only reverses them.

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
 * The id a reader names a snapshot by in `prufe.snapshot({ wire: true, base })`
 * (src/core/wire_delta.rs `id_of`).
 * @param {Prufe.Snapshot} snapshot
 */
export function snapshotId(snapshot) {
  return `${snapshot.context.epoch}-${snapshot.context.snapshot}`;
}

/**
 * The snapshot a wire string holds; for a delta, the snapshot it gives applied to `base`, the
 * snapshot the reader holds (its unchanged element and text objects are shared with it, so
 * neither may be changed in place). Throws an Error with `code: 'INVALID_SNAPSHOT'` for
 * anything else (a delta against another snapshot than `base`).
 * @param {string} text
 * @param {Prufe.Snapshot | null} [base]
 * @returns {Prufe.Snapshot}
 */
export function decodeSnapshot(text, base = null) {
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
  const rows = { str, tag, last: 0 };
  /** @param {any[]} t */
  const textOf = (t) => {
    if (!Array.isArray(t) || t.length !== 4 || typeof t[0] !== 'string' || typeof t[1] !== 'string') {
      throw invalid('text row');
    }
    return { kind: /** @type {Prufe.TextKind} */ (t[0]), text: t[1], region: str(t[2]), frame: str(t[3]) };
  };
  if (w.base !== undefined) {
    if (!base || typeof w.base !== 'string' || snapshotId(base) !== w.base) {
      throw invalid(`a delta against the snapshot ${w.base}, not against ${base ? snapshotId(base) : 'none'}`);
    }
    return {
      context: w.context,
      hasMore: w.hasMore === true,
      elements: replay(base.elements, elements, (r) => elementOf(r, rows)),
      texts: replay(base.texts, texts, textOf),
    };
  }
  const out = new Array(elements.length);
  for (let i = 0; i < elements.length; i++) out[i] = elementOf(elements[i], rows);
  return { context: w.context, hasMore: w.hasMore === true, elements: out, texts: texts.map(textOf) };
}

/**
 * `base` edited by a delta's script (src/core/wire_delta.rs): `n > 0` copies the base's next
 * `n` items, `-n` drops them, a row is the next new item, read by `row`.
 * @template T
 * @param {T[]} base @param {unknown[]} ops @param {(row: any[]) => T} row
 * @returns {T[]}
 */
function replay(base, ops, row) {
  const out = [];
  let j = 0;
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (Array.isArray(op)) {
      out.push(row(op));
      continue;
    }
    if (typeof op !== 'number' || !Number.isInteger(op) || op === 0) throw invalid(`an edit ${op}`);
    const end = j + Math.abs(op);
    if (end > base.length) throw invalid(`an edit of ${op} past the base's end`);
    if (op > 0) for (let k = j; k < end; k++) out.push(base[k]);
    j = end;
  }
  if (j !== base.length) throw invalid(`the delta leaves ${base.length - j} of its base's rows unread`);
  return out;
}

/**
 * One element row: [ref, role, name, region, flags, text?, href?, value?, level?, within?,
 * valueHash?, frame?] (src/core/wire.rs). Each shape of element is one object literal, in the
 * key order of `prufe.snapshot()`'s objects; `rows.last` is the number of the last ref.
 * @param {any[]} r
 * @param {{ str: (i: unknown) => string, tag: string, last: number }} rows
 */
function elementOf(r, rows) {
  const { str } = rows;
  if (!Array.isArray(r) || r.length < 5 || r.length > 12) throw invalid('element row');
  const n = r.length;
  const f = r[4];
  if ((f & 0xffff) !== f) throw invalid(`flags ${f}`);
  let ref = r[0];
  if (typeof ref === 'number') {
    if (!Number.isInteger(ref) || rows.last + 1 + ref < 0) throw invalid(`ref ${ref}`);
    rows.last += ref + 1;
    ref = `e${rows.last}-${rows.tag}`;
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
  return e;
}
