// Type declarations for `window.prufe`, the in-page engine installed by js/dist/prufe.js.
// The contract is docs/DESIGN.md ("window.prufe"); the wire shapes mirror src/core (model,
// error, diff, resolve, judge) with camelCase field names.

declare namespace Prufe {
  /** WAI-ARIA 1.2 roles, plus `iframe` for frame elements and `unknown`. */
  type Role =
    | 'alert' | 'alertdialog' | 'application' | 'article' | 'banner' | 'blockquote' | 'button'
    | 'caption' | 'cell' | 'checkbox' | 'code' | 'columnheader' | 'combobox' | 'complementary'
    | 'contentinfo' | 'definition' | 'deletion' | 'dialog' | 'directory' | 'document' | 'emphasis'
    | 'feed' | 'figure' | 'form' | 'generic' | 'grid' | 'gridcell' | 'group' | 'heading' | 'iframe'
    | 'img' | 'insertion' | 'link' | 'list' | 'listbox' | 'listitem' | 'log' | 'main' | 'mark'
    | 'marquee' | 'math' | 'menu' | 'menubar' | 'menuitem' | 'menuitemcheckbox' | 'menuitemradio'
    | 'meter' | 'navigation' | 'none' | 'note' | 'option' | 'paragraph' | 'progressbar' | 'radio'
    | 'radiogroup' | 'region' | 'row' | 'rowgroup' | 'rowheader' | 'scrollbar' | 'search'
    | 'searchbox' | 'separator' | 'slider' | 'spinbutton' | 'status' | 'strong' | 'subscript'
    | 'superscript' | 'switch' | 'tab' | 'table' | 'tablist' | 'tabpanel' | 'term' | 'textbox'
    | 'time' | 'timer' | 'toolbar' | 'tooltip' | 'tree' | 'treegrid' | 'treeitem' | 'unknown';

  /** `aria-checked` / `aria-pressed`: a boolean or `"mixed"`. */
  type Tristate = boolean | 'mixed';

  /** Every code an error thrown by prufe (in the page or the harness) may carry. */
  type ErrorCode =
    | 'NOT_READY' | 'WASM_BLOCKED' | 'INVALID_ARGUMENT' | 'INVALID_FIELDS' | 'INVALID_TEXT'
    | 'INVALID_EPOCH' | 'INVALID_CONTEXT' | 'INVALID_COMPLETENESS' | 'INVALID_VIEWPORT'
    | 'INVALID_STATE' | 'INVALID_ELEMENTS' | 'INVALID_TARGET' | 'INVALID_ACTION'
    | 'INVALID_OPTIONS' | 'INVALID_SNAPSHOT' | 'INVALID_SCRIPT' | 'INVALID_EXPECT' | 'DUPLICATE_REFERENCE'
    | 'STALE_OBSERVATION' | 'STALE_REFERENCE' | 'TARGET_CHANGED' | 'TARGET_QUERY_TRUNCATED'
    | 'TARGET_AMBIGUOUS' | 'TARGET_NOT_FOUND' | 'TARGET_DISABLED' | 'TARGET_NOT_VISIBLE'
    | 'TARGET_OBSCURED' | 'TARGET_NOT_STABLE' | 'VERIFICATION_FAILED' | 'UNDO_FAILED'
    | 'IRREVERSIBLE_ACTION' | 'POINT_OUT_OF_BOUNDS' | 'INPUT_STATE_UNKNOWN' | 'FOCUS_LOST'
    | 'POSTCONDITION_TIMEOUT' | 'TIMEOUT' | 'BROWSER_ERROR' | 'NAVIGATION_FAILED' | 'INTERNAL'
    | 'PAGE_CRASHED' | 'BROWSER_CLOSED' | 'PAGE_UNRESPONSIVE' | 'INTERRUPTED';

  /** A candidate listed by `TARGET_AMBIGUOUS` (at most 10). */
  interface Candidate {
    ref: string;
    role: string;
    name: string;
    region: string;
  }

  /** What every prufe function throws. */
  interface PrufeError extends Error {
    name: 'PrufeError';
    code: ErrorCode;
    message: string;
    candidates?: Candidate[];
  }

  /** Which document a snapshot came from and which snapshot it is. */
  interface Context {
    /** Set by the caller; stable per page by default. */
    tab: string;
    /** Changes with every new document. */
    epoch: number;
    /** Unique per snapshot. */
    snapshot: string;
  }

  /** One observable element. Its identity is (role, name or text, region). */
  interface ElementRecord {
    ref: string;
    role: Role;
    /** Accessible name (accname 1.2), whitespace-normalised, capped, redacted. */
    name: string;
    /** Observed content of a nameless container (listitem, row, article). */
    text?: string;
    /** `main`, `form[Checkout]`, `cart/list:done`, `frame[1]/main`; `""` outside landmarks. */
    region: string;
    /**
     * `listitem[Walk dog]`: the nearest named row-like container, for an element without a
     * name (part of its identity) or one whose name its twins in other rows share.
     */
    within?: string;
    /** Frame position path: `""` top document, `"0"`, `"0.1"` nested frames. */
    frame: string;
    href: string | null;
    /** Current value; `"[redacted]"` when sensitive. */
    value: string | null;
    /** Keyed hash of a sensitive value: compare with `prufe.hash(value)`. */
    valueHash?: string;
    checked: Tristate | null;
    pressed: Tristate | null;
    selected: boolean | null;
    expanded: boolean | null;
    disabled: boolean;
    visible: boolean;
    inViewport: boolean;
    focused: boolean;
    sensitive: boolean;
    /** Heading level. */
    level?: number;
    /** A closed shadow root or a cross-origin frame whose inside cannot be read. */
    opaque?: boolean;
    /** The element or an ancestor has `aria-busy="true"`. */
    busy?: boolean;
    /** A role-less element that acts as a control, observed as a named `generic`. */
    clickable?: boolean;
  }

  type TextKind = 'paragraph' | 'status' | 'alert' | 'log' | 'watch' | 'other' | 'plain';

  /** Observable running text: paragraphs, live regions, `data-ap-watch` elements. */
  interface Text {
    kind: TextKind;
    text: string;
    region: string;
    frame: string;
  }

  interface Snapshot {
    context: Context;
    /** True when a cap or the time budget stopped the walk early. */
    hasMore: boolean;
    elements: ElementRecord[];
    texts: Text[];
  }

  /** Region filters: a prefix matches a region equal to it or continuing with `/` or `[`. */
  interface RegionFilter {
    /** Keep only regions matching one of these prefixes. */
    regions?: string[];
    /** Then drop regions matching one of these prefixes. */
    ignoreRegions?: string[];
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
  }

  interface FingerprintOptions extends SnapshotOptions {
    /**
     * Left out of the fingerprint: elements and texts in these slots (what the page was seen
     * changing by itself), in the merged page's terms.
     */
    background?: {
      texts: { frame: string; region: string; kind: string; shape?: string }[];
      elements: { frame: string; region: string; role: string; shape?: string }[];
    };
    /** This document's frame path in the merged page ('' for the top document). */
    root?: string;
  }
  type DiffOptions = RegionFilter;

  type Field = 'value' | 'checked' | 'pressed' | 'selected' | 'expanded' | 'disabled' | 'visible' | 'href';

  interface FieldChange {
    field: Field;
    before: string | null;
    after: string | null;
  }

  interface Changed {
    before: ElementRecord;
    after: ElementRecord;
    fields: FieldChange[];
  }

  interface Moved {
    before: ElementRecord;
    after: ElementRecord;
  }

  interface Diff {
    appeared: ElementRecord[];
    disappeared: ElementRecord[];
    changed: Changed[];
    moved: Moved[];
    textsAppeared: Text[];
    textsDisappeared: Text[];
    /** `describe()`-style lines, e.g. `appeared listitem[Shirt M] in cart`. */
    lines: string[];
    empty: boolean;
  }

  /** What a caller declares it wants to act on; optional fields narrow only when given. */
  interface Target {
    /** Absent: any role. `"generic"` matches clickable generics only. */
    role?: Role | string;
    name: string;
    region?: string;
    frame?: string;
    href?: string;
    inViewport?: boolean;
    /**
     * The nearest named container the element is in (`{ role: 'listitem', name: 'Walk dog' }`,
     * what `ElementRecord.within` shows as `listitem[Walk dog]`); with it, `name` may be `""`.
     */
    in?: Container;
    /**
     * The element's place, from 1, among the visible elements the rest of the target names,
     * in document order (the second unnamed list of a region); with it, `name` may be `""`.
     */
    nth?: number;
  }

  /** A container a target is in: its role and its label. */
  interface Container {
    role: Role | string;
    name: string;
  }

  interface ResolveOptions {
    /** The observation to resolve in; a fresh snapshot of the document when absent. */
    observation?: Snapshot;
    /** The context the caller believes is current; `STALE_OBSERVATION` when it is not. */
    expected?: Context;
  }

  /** A selected element. Selection is not permission: both flags are always false. */
  interface Resolution {
    context: Context;
    target: ElementRecord;
    authorized: false;
    dispatched: false;
  }

  type ActionKind =
    | 'click' | 'fill' | 'check' | 'uncheck' | 'select' | 'press' | 'hover' | 'upload' | 'drag'
    | 'goto' | 'watch';

  interface Action {
    kind: ActionKind;
    target?: ElementRecord;
    /** The requested value of a fill. */
    value?: string;
    /** The keyed hash of a sensitive fill's value (`prufe.hash(value)`). */
    valueHash?: string;
    /** The chosen option of a select. */
    option?: string;
    /** A sentence saying what the action is meant to do, in any language. */
    intent?: string;
  }

  interface JudgeOptions extends RegionFilter {
    /** Whether the page was stable after the action (default true). */
    stable?: boolean;
  }

  type VerdictKind = 'MATCH' | 'MISMATCH' | 'AMBIGUOUS';

  interface Verdict {
    verdict: VerdictKind;
    reason: string;
    /** The element whose name explains the effect (the target, or a neighbour). */
    attributedTo: { role: Role; name: string; region: string } | null;
    diff: Diff;
  }

  /** A point in the viewport, in CSS pixels. */
  interface Point {
    x: number;
    y: number;
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

  /** Where activating an element would load a new document. */
  interface Destination {
    kind: 'link' | 'form';
    /** Absolute, as the page resolved it (`a.href`, `form.action`). */
    url: string;
    /** A form's method (`get`, `post`, `dialog`); `""` for a link. */
    method: string;
  }

  interface Api {
    /** The engine version (the prufe crate version). */
    readonly version: string;
    /** Resolves when the engine can answer; rejects with `WASM_BLOCKED`. */
    readonly ready: Promise<void>;
    /** The compact wire form, for callers outside the page: `decodeSnapshot` of js/wire.mjs. */
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
      | { answer: 'refused'; refusal:
          | { kind: 'emptyBox' }
          | { kind: 'noVisibleArea' }
          | { kind: 'keptMoving'; timeoutMs: number }
          | { kind: 'covered'; by: string; point: Point } }
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
    /** Moves the focus to the element (before keys are pressed on it). */
    focus(ref: string): void;
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
