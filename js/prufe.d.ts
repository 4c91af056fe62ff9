// Type declarations for `window.prufe`, the in-page engine installed by js/dist/prufe.js.
// The contract is docs/DESIGN.md ("window.prufe"). The data it takes and returns (elements,
// snapshots, diffs, targets, verdicts, error codes) is declared in prufe-types.d.ts, generated
// from the Rust types of src/core; here are its functions and their options.

/// <reference path="prufe-types.d.ts" />

declare namespace Prufe {
  /** What every prufe function throws. */
  interface PrufeError extends Error {
    name: 'PrufeError';
    code: ErrorCode;
    message: string;
    candidates?: Candidate[];
  }

  /**
   * A node's path from the top document of the engine's world: child-node indices
   * (`childNodes`, text and comments counted), `'s'` entering the host's open shadow root,
   * `'f'` entering the `<iframe>`'s document. Built in the library's world, walked in the
   * engine's: both read the same DOM.
   */
  type NodePath = (number | 's' | 'f')[];

  /** What `identify` answers. */
  interface Identified {
    element: ElementRecord;
    exact: boolean;
    target: Target | null;
  }

  interface SnapshotOptions extends RegionFilter {
    /** The caller's tab id, reported in `context.tab`. */
    tab?: string;
    /** Element cap; `hasMore` is true when reached. */
    maxElements?: number;
    /** Time budget of the walk, in milliseconds. */
    budgetMs?: number;
    /** Caller-declared sensitive elements: refs or CSS selectors. */
    sensitive?: string[];
    /** `snapshot` answers with the compact wire string instead (read it with js/wire.mjs). */
    wire?: boolean;
    /**
     * With `wire`: the id of the snapshot the caller holds (`snapshotId` of js/wire.mjs); the
     * answer is a delta against it while the engine keeps it (its last three wire answers,
     * taken with the same options), else the full form. `decodeSnapshot(wire, held)` reads both.
     */
    base?: string;
  }

  interface FingerprintOptions extends SnapshotOptions {
    /**
     * Left out of the fingerprint: elements and texts in these slots (what the page was seen
     * changing by itself), in the merged page's terms.
     */
    background?: Background;
    /** This document's frame path in the merged page ('' for the top document). */
    root?: string;
  }
  type DiffOptions = RegionFilter;

  interface ResolveOptions {
    /** The observation to resolve in; a fresh snapshot of the document when absent. */
    observation?: Snapshot;
    /** The context the caller believes is current; `STALE_OBSERVATION` when it is not. */
    expected?: Context;
  }

  /** `prufe.box(ref)`: the border box and the point input goes to, in viewport CSS pixels. */
  interface Box {
    x: number;
    y: number;
    width: number;
    height: number;
    /** The centre of the first fragment with an area (a wrapped link's first line); null without one. */
    point: Point | null;
    /** `point` lies in the viewport, scroll bars excluded. */
    inView: boolean;
  }

  interface Api {
    /** The engine version (the prufe crate version). */
    readonly version: string;
    /** Resolves when the engine can answer; rejects with `WASM_BLOCKED`. */
    readonly ready: Promise<void>;
    /** The compact wire form, for callers outside the page: `decodeSnapshot` of js/wire.mjs (a delta with `base`). */
    snapshot(options: SnapshotOptions & { wire: true }): string;
    snapshot(options?: SnapshotOptions): Snapshot;
    /** Equal fingerprints ⇔ an empty diff between the snapshots they stand for. */
    fingerprint(options?: FingerprintOptions): string;
    diff(before: Snapshot, after: Snapshot, options?: DiffOptions): Diff;
    resolve(target: Target, options?: ResolveOptions): Resolution;
    /** The live DOM element of a ref; throws `STALE_REFERENCE` or `TARGET_CHANGED`. */
    element(ref: string): Element;
    judge(action: Action, before: Snapshot, after: Snapshot, options?: JudgeOptions): Verdict;
    /** Keyed hash with this document's key; compare with `valueHash`. */
    hash(value: string): string;
    /** The current record of a live ref, or null (identity re-check). */
    describe(ref: string): ElementRecord | null;
    /** The observable element under a viewport point, through shadow roots and same-origin frames. */
    at(x: number, y: number): ElementRecord | null;
    /** The focused observable element, through shadow roots. */
    focused(): ElementRecord | null;
    /**
     * How long, in ms, the page has shown no sign of change to the fingerprint's cache (no
     * mutation in any document or shadow root it watches, no style, layout or scroll event,
     * no running animation); 0 when unknown. A page quiet for a whole quiet window is settled.
     */
    quietFor(): number;
    /**
     * How long, in ms, nothing that can change what the engine observes has happened: like
     * `quietFor`, but input that changes nothing (a pointer over a page whose hover rules
     * only paint) does not count. A record or a box read this long ago still holds.
     */
    stillFor(): number;
    /**
     * The answer to the machine's settle need, in one call: reads the fingerprint (under
     * `options`, as `fingerprint` takes them) every `pollMs` until it has not changed for
     * `quietMs` (after leaving `since`, when given), within `timeoutMs`; with
     * `stopOnChange`, at its first move. Rejects with `INVALID_ARGUMENT` for anything but a
     * settle need.
     */
    settle(need: {
      need?: 'settle'; since: string | null; pollMs: number; quietMs: number; timeoutMs: number; stopOnChange?: boolean;
    }, options?: FingerprintOptions): Promise<{ answer: 'settled'; fingerprint: string; stable: boolean; changed: boolean; waitedMs: number }>;

    // Around input: what a driver needs to answer the machine's prepare, input and read
    // needs. Each throws `STALE_REFERENCE` or `TARGET_CHANGED` for a ref it must not touch.

    /** The element's box and the point input goes to (elements of same-origin frames included). */
    box(ref: string): Box;
    /** Scrolls every container on the way so that the element is centred. */
    scrollIntoView(ref: string): void;
    /**
     * The answer to the machine's prepare need: `{ answer: 'prepared', point }` once the box
     * is non-empty, still across two frames (at once on a page quiet that long) and in view,
     * and with `hitTest` input at the point reaches the element; `{ answer: 'scrolled' }`
     * after scrolling it into view; `{ answer: 'refused', refusal }` saying why it is not
     * ready (data the machine words: `TARGET_NOT_VISIBLE` for `emptyBox` and `noVisibleArea`,
     * `TARGET_NOT_STABLE` for `keptMoving` after `timeoutMs`, `TARGET_OBSCURED` for `covered`,
     * with what input at its point lands on); `{ answer: 'failed', error }` with a stale
     * ref's code. Rejects only for arguments of the wrong type.
     */
    prepare(ref: string, hitTest: boolean, timeoutMs: number): Promise<
      | { answer: 'prepared'; point: Point }
      | { answer: 'scrolled' }
      | { answer: 'refused'; refusal: Refusal }
      | { answer: 'failed'; error: { code: ErrorCode; message: string } }
    >;
    /**
     * null when input at (x, y) reaches the element (it, something inside it, or a label
     * forwarding to it); otherwise what it lands on, as `tag#id.class "text"`.
     */
    hitTest(ref: string | Element, x: number, y: number): string | null;
    /**
     * The first of the element's `<label>`s that is in view and where input reaches the
     * element (a visually hidden input is clicked on its label); `prepare` answers that
     * label's point when the element's own is covered. Throws `TARGET_OBSCURED` when none is.
     */
    labelInReach(ref: string): HTMLLabelElement;
    /** Focuses the element and selects its content; false when the focus is not on it then. */
    focusSelect(ref: string): boolean;
    /** The file input that is the element, is inside it, or is the control of its label. */
    fileInput(ref: string): HTMLInputElement;
    /** Moves the focus to the element (before keys are pressed on it); false when the focus is not on it then. */
    focus(ref: string): boolean;
    /**
     * The position of an `<iframe>` among the frames of its document (document order, open
     * shadow roots included, as DevTools numbers child frames); -1 when it is none of them.
     */
    frameIndex(frame: Element): number;
    /**
     * The target that names the element of `ref` as a person would, on a fresh snapshot
     * taken with `options`: its role, label, region and frame; without a label, the named
     * row it is in (`in`) or its place among the unnamed elements of its role there (`nth`).
     * Resolving it finds that element again. `TARGET_NOT_VISIBLE` for a hidden element.
     */
    targetOf(ref: string, options?: SnapshotOptions): Target;
    /**
     * Which observed element a browser library's node is, the node given by its `path` from
     * this document (see `NodePath`), on a fresh snapshot taken with `options`: the nearest one
     * on its way up (itself, the element holding it, a slotted node's slot, a shadow root's
     * host, a same-origin frame's `<iframe>`), else the only one inside it. `exact` when it is
     * the node itself; `target` names it (`targetOf`), null when it is hidden.
     * `TARGET_NOT_FOUND` when the path leads nowhere or nothing observed is there,
     * `TARGET_NOT_VISIBLE` when the node is hidden; `INVALID_ARGUMENT` for a malformed path.
     */
    identify(path: NodePath, options?: SnapshotOptions): Identified;
    /** The node at the end of `path` from this document (see `NodePath`), or null. */
    nodeAt(path: NodePath): Node | null;
    /** A field's raw value (an editable element's text), unredacted: never log it. */
    value(ref: string): string | null;
    /**
     * Chooses the option labelled (whitespace and case aside), else valued, `option`; fires
     * `input` and `change`; returns the value before. `TARGET_NOT_FOUND` lists the options.
     */
    select(ref: string, option: string): string;
    /** Writes `value` back (the undo of `select`), firing `input` and `change`. */
    restore(ref: string, value: string): void;
    /** Where a click (or Enter) on the element would go: its link, or the form it submits. */
    destination(ref: string): Destination | null;

    /** The document's `readyState` and device pixel ratio. */
    page(): { readyState: DocumentReadyState; devicePixelRatio: number };

    // Around a pointer step: what the coordinate executor asks. The scroll container is
    // kept in the engine's world between the call that finds it and those that read it.

    /** Every visible observable element whose box meets the viewport, and whether it is topmost at the centre of its visible part. */
    hitBoxes(): HitBox[];
    /** Finds and keeps the scroll container under the point (or the page); where it stands. */
    scrollFrom(x: number, y: number): ScrollPosition & { container: string };
    /** Where the container `scrollFrom` kept stands now; null in a new document. */
    scrollPosition(): ScrollPosition | null;
    /**
     * The raw value and selection (UTF-16 offsets) of the field of `ref` when the focus is on
     * it, else null: read right before typing, for the machine to say what it should hold.
     */
    selection(ref: string): { value: string | null; start: number | null; end: number | null } | null;

    // Around a screenshot: secrets covered, then uncovered, with nothing the page's scripts
    // observe (no node or attribute, no transition; see docs/DESIGN.md, "Pictures").

    /**
     * Paints every sensitive element (passwords, payment and one-time-code fields,
     * `data-ap-sensitive`, the refs and selectors in `sensitive`, and any element showing one
     * of `secrets` or a sensitive field's value) one flat black, in every scope, until `uncover`.
     */
    cover(options?: { sensitive?: string[]; secrets?: string[] }): { boxes: Rect[]; scopes: number };
    /** Takes the cover away (two style changes, so no transition starts); how many scopes had one. */
    uncover(): number;
    /** The border box of each ref's node (whatever it shows now), null for a ref whose node is gone. */
    boxes(refs: string[]): (Rect | null)[];
  }

  interface Rect {
    x: number;
    y: number;
    width: number;
    height: number;
  }

  interface HitBox {
    element: ElementRecord;
    x: number;
    y: number;
    width: number;
    height: number;
    topmost: boolean;
  }

  interface ScrollPosition {
    left: number;
    top: number;
    pageLeft: number;
    pageTop: number;
  }
}

/** The engine, installed non-writable on the global object of the world it was injected into. */
declare var prufe: Prufe.Api;
