// Generated from the Rust types by `make types` (src/types.rs): do not edit.
// The wire shapes of the in-page engine's types, the data `window.prufe` takes and returns
// (js/prufe.d.ts declares its functions).

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

  /** Every failure prufe reports. Codes are part of the public contract: add, never rename. */
  type ErrorCode =
    /** The engine has not finished loading; await `prufe.ready`. */
    | 'NOT_READY'
    /** WebAssembly could not be instantiated (for instance a CSP without `wasm-unsafe-eval`). */
    | 'WASM_BLOCKED'
    /** An argument is not of the documented shape. */
    | 'INVALID_ARGUMENT'
    /** An object has missing or unknown keys. */
    | 'INVALID_FIELDS'
    /** A text field is empty, not a string or over-long. */
    | 'INVALID_TEXT'
    /** An epoch is not a non-negative integer. */
    | 'INVALID_EPOCH'
    /** A context is not `{ tab, epoch, snapshot }`. */
    | 'INVALID_CONTEXT'
    /** `hasMore` is not a boolean. */
    | 'INVALID_COMPLETENESS'
    /** `inViewport` is not a boolean. */
    | 'INVALID_VIEWPORT'
    /** An element state is not of its type (integer 1 is not a boolean). */
    | 'INVALID_STATE'
    /** The element list is not a list, or holds more than `MAX_ELEMENTS`. */
    | 'INVALID_ELEMENTS'
    /** A target is malformed. */
    | 'INVALID_TARGET'
    /** An action is malformed or unknown. */
    | 'INVALID_ACTION'
    /** Options are malformed. */
    | 'INVALID_OPTIONS'
    /** A snapshot is malformed. */
    | 'INVALID_SNAPSHOT'
    /** A script file is malformed. */
    | 'INVALID_SCRIPT'
    /** A step's `expect` holds a claim of the wrong shape or values. */
    | 'INVALID_EXPECT'
    /** Two elements of one observation share a ref. */
    | 'DUPLICATE_REFERENCE'
    /** The observation is not the one the caller expected (tab, epoch or snapshot differ). */
    | 'STALE_OBSERVATION'
    /** A ref belongs to an older document, or its node is gone. */
    | 'STALE_REFERENCE'
    /** The node behind a ref, or under a point, now shows something else. */
    | 'TARGET_CHANGED'
    /** The observation was cut short, so uniqueness cannot be established. */
    | 'TARGET_QUERY_TRUNCATED'
    /** More than one element matches the target. */
    | 'TARGET_AMBIGUOUS'
    /** No visible element matches the target. */
    | 'TARGET_NOT_FOUND'
    /** The single match is disabled. */
    | 'TARGET_DISABLED'
    /** The single match is not visible. */
    | 'TARGET_NOT_VISIBLE'
    /** Another element would receive the input at the target's point. */
    | 'TARGET_OBSCURED'
    /** The target kept moving. */
    | 'TARGET_NOT_STABLE'
    /** The action's effect is not the one intended. */
    | 'VERIFICATION_FAILED'
    /** The undo ran but the wrong effect is still there. */
    | 'UNDO_FAILED'
    /** The wrong effect has no inverse; prufe stopped. */
    | 'IRREVERSIBLE_ACTION'
    /** A point lies outside the observed image. */
    | 'POINT_OUT_OF_BOUNDS'
    /** Input state of an attached browser could not be established. */
    | 'INPUT_STATE_UNKNOWN'
    /** Focus moved away from the intended field before typing. */
    | 'FOCUS_LOST'
    /** A wait's postcondition did not hold by its deadline. */
    | 'POSTCONDITION_TIMEOUT'
    /** An operation ran past its time budget. */
    | 'TIMEOUT'
    /** The browser or the protocol failed. */
    | 'BROWSER_ERROR'
    /** Navigation failed. */
    | 'NAVIGATION_FAILED'
    /** A bug in prufe; please report it. */
    | 'INTERNAL'
    /** The page's renderer crashed, or its tab went away, during the action. */
    | 'PAGE_CRASHED'
    /** The browser exited, or the connection to it closed, during the action. */
    | 'BROWSER_CLOSED'
    /** The page's main thread stayed busy past the action's time budget. */
    | 'PAGE_UNRESPONSIVE'
    /** The run was stopped (a signal) before the action finished. */
    | 'INTERRUPTED';

  /** A candidate listed by an ambiguity error. */
  interface Candidate {
    ref: string;
    role: string;
    name: string;
    region: string;
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

  /** One observable element. Its identity is `(role, label, region)`: see `identity`. */
  interface ElementRecord {
    /** Stable while the live node keeps its identity; a new ref otherwise. */
    ref: string;
    role: Role;
    /** Accessible name per accname 1.2, whitespace-normalised, capped, redacted. */
    name: string;
    /** `main`, `form[Checkout]`, `cart/list:done`, `frame[1]/main`; empty outside landmarks. */
    region: string;
    /** Frame position path: `""` for the top document, `"0"`, `"0.1"` for nested frames. */
    frame: string;
    href: string | null;
    /** Current value; `[redacted]` when sensitive. */
    value: string | null;
    checked: Tristate | null;
    pressed: Tristate | null;
    selected: boolean | null;
    expanded: boolean | null;
    disabled: boolean;
    visible: boolean;
    inViewport: boolean;
    focused: boolean;
    sensitive: boolean;
    /** The element or one of its ancestors says it is being updated (`aria-busy="true"`). */
    busy?: boolean;
    /**
     * SPEC DIFFERENCE: a role-less element that acts as a control (a click handler,
     * `onclick`, `cursor: pointer` of its own, a `tabindex`), observed as a `generic` named
     * from its content so it can be a target.
     */
    clickable?: boolean;
    /** Heading level, where the role has one. */
    level?: number | null;
    /** A closed shadow root or cross-origin frame whose inside cannot be read. */
    opaque?: boolean;
    /**
     * Observed content of a nameless container (a `listitem`, `row`, `article`): SPEC
     * DIFFERENCE, ARIA gives these no name, but a person tells cart lines apart by it.
     */
    text?: string | null;
    /**
     * Keyed hash of the value (key never leaves the page); set for sensitive values so a
     * change stays observable without reading it.
     */
    valueHash?: string | null;
    /**
     * `listitem[Walk dog]`: the nearest row-like container around the element (a list item,
     * row, tree item, article, cell or group) that a person names by its own words, given to
     * an element without a label of its own and to one whose label its twins in other
     * containers share (every row's `Delete` button). The container's words leave out the
     * controls inside it, so a button that shows on hover does not rename the row. Part of
     * the identity of an element without a label: the unnamed checkbox of one row is not
     * the unnamed checkbox of the next (see `identity`).
     */
    within?: string | null;
  }

  /** Kinds of observable running text. */
  type TextKind =
    | 'paragraph' | 'status' | 'alert' | 'log' | 'watch' | 'other'
    /**
     * Any other visible text run (a `div`, `span` or table cell that shows a total, a score,
     * "Saved").
     */
    | 'plain';

  /**
   * Observable running text: paragraphs, live regions, `data-ap-watch` elements, and every
   * other visible text run (`TextKind::Plain`).
   */
  interface Text {
    kind: TextKind;
    text: string;
    region: string;
    frame: string;
  }

  /** A full observation of one document (and its same-origin frames). */
  interface Snapshot {
    context: Context;
    /** True when a cap or the time budget stopped the walk early. */
    hasMore: boolean;
    elements: ElementRecord[];
    texts: Text[];
  }

  /**
   * Which regions a diff looks at. A prefix matches a region equal to it or continuing it with
   * `/` or `[` (`cart` matches `cart/list:items`, `form` matches `form[Login]`, never
   * `cartoon`); the empty prefix matches every region.
   */
  interface RegionFilter {
    /** Then drop regions matching one of these prefixes. */
    ignoreRegions?: string[];
    /** Keep only regions matching one of these prefixes (all regions when empty). */
    regions?: string[];
  }

  /** An observable field the diff compares. */
  type Field =
    | 'checked' | 'pressed' | 'selected' | 'expanded' | 'disabled' | 'visible' | 'href' | 'value';

  /** One field of a changed element, as printed. */
  interface FieldChange {
    field: Field;
    before: string | null;
    after: string | null;
  }

  /** An element whose identity stayed while observable fields changed. */
  interface Changed {
    before: ElementRecord;
    after: ElementRecord;
    /** At least one; in the order of `Field::ALL`. */
    fields: FieldChange[];
  }

  /** An element that left one region and showed up in another with the same role and label. */
  interface Moved {
    before: ElementRecord;
    after: ElementRecord;
  }

  /**
   * What changed between two snapshots. Lists are in document order (of `after` for
   * appearances, changes and moves; of `before` for disappearances).
   */
  interface Diff {
    appeared: ElementRecord[];
    disappeared: ElementRecord[];
    changed: Changed[];
    moved: Moved[];
    textsAppeared: Text[];
    textsDisappeared: Text[];
    /** `Diff::describe`, computed once. */
    lines: string[];
    /** Nothing appeared, disappeared, changed or moved. */
    empty: boolean;
  }

  /**
   * What a caller declares it wants to act on. `role` and `name` identify; the optional fields
   * narrow, and only when given.
   */
  interface Target {
    /** The element's label: its accessible name, or the text of a nameless container. */
    name: string;
    /** Frame position path, exact; `""` is the top document. */
    frame?: string | null;
    /** Exact `href` metadata as observed (not a verified destination). */
    href?: string | null;
    /**
     * The nearest named container the element is in (`{ "role": "listitem", "name": "Walk
     * dog" }`), as `Element::within` observes it: what tells apart the unnamed checkbox of
     * each row, or the `Delete` button every row has. With it, `name` may be empty.
     */
    in?: Container | null;
    inViewport?: boolean | null;
    /**
     * The element's place, from 1, among the visible elements the rest of the target names,
     * in document order: what tells apart elements with neither a label nor a named row
     * around them (the second of three unnamed lists of a board, a drop zone a test suite
     * knows by its CSS id). `target_of` gives it to such an element. With it, `name` may
     * be empty.
     */
    nth?: number | null;
    /** Compared after whitespace normalisation and lowercasing; `""` is the document level. */
    region?: string | null;
    /**
     * An ARIA role (`"button"`), compared case-insensitively; empty (absent): any role.
     * `"generic"` matches clickable generics only (role-less controls, see
     * `Element::clickable`), never a plain container.
     */
    role?: string;
  }

  /** A container a target is in: a role and the container's label. */
  interface Container {
    role: string;
    name: string;
  }

  /**
   * A selected element. Selection is not permission: `authorized` and `dispatched` are always
   * false, and the live node must be re-checked before input.
   */
  interface Resolution {
    context: Context;
    target: ElementRecord;
    authorized: boolean;
    dispatched: boolean;
  }

  /** What the caller did. */
  type ActionKind =
    | 'click' | 'fill' | 'check' | 'uncheck' | 'select' | 'press' | 'hover' | 'upload' | 'drag'
    | 'goto' | 'watch';

  /**
   * An action to judge. `value` is what a fill asked for; for a sensitive target the caller
   * passes `valueHash` (`prufe.hash(value)`, keyed in the page) instead, and the judge never
   * reads, compares or prints a secret value.
   */
  interface Action {
    kind: ActionKind;
    /** What the caller means to happen, in words, in any language. */
    intent?: string | null;
    /**
     * The key a `press` sent (`Enter`, `Escape`, `Tab`, `Control+a`), named as the
     * `KeyboardEvent.key` values are.
     */
    key?: string | null;
    /** The option a `select` asked for. */
    option?: string | null;
    /** The element `resolve` returned (from `before`). */
    target?: ElementRecord | null;
    value?: string | null;
    valueHash?: string | null;
  }

  /** The slots a page was changing by itself before the action. */
  interface Background {
    /**
     * The page moved its focus, the order of its records or its selection by itself (a
     * carousel that rotates by moving nodes, a ticker that reorders rows): the fingerprint
     * then leaves its claims out (`core::fingerprint::with_claims`), so a settle waits on
     * the diffed part alone, as before claims were seen.
     */
    claims?: boolean;
    elements?: {
      frame: string;
      region: string;
      role: Role;
      /** `shape` of the label of an element seen changing there; empty (or absent) for any. */
      shape?: string;
    }[];
    texts?: {
      frame: string;
      region: string;
      kind: TextKind;
      /** `shape` of a text seen changing there; empty (or absent) for any shape. */
      shape?: string;
    }[];
  }

  /** How to judge. */
  interface JudgeOptions {
    /** What the page was changing by itself before the action (seen while settling). */
    background?: Background;
    /** Ignore changes in these regions (a ticker, a clock). */
    ignoreRegions?: string[];
    /** Judge only changes in these regions (prefixes, as `DiffOptions::regions`). */
    regions?: string[];
    /**
     * The page settled before `after` was taken. When false, an absent effect may be yet
     * to come, so it is AMBIGUOUS, never MISMATCH.
     */
    stable?: boolean;
  }

  /** The three answers. */
  type VerdictKind =
    /** The effect is the one intended. */
    | 'MATCH'
    /** The diff proves the effect is not the one intended (or that there was none). */
    | 'MISMATCH'
    /** The diff proves neither. */
    | 'AMBIGUOUS';

  /** The element an effect was attributed to. */
  interface Attribution {
    role: Role;
    /** The element's label: its name, else its observed text. */
    name: string;
    region: string;
  }

  /** The judge's answer. `reason` is one sentence built from redacted data only. */
  interface Verdict {
    verdict: VerdictKind;
    reason: string;
    attributedTo: Attribution | null;
    diff: Diff;
  }

  /** A point in the top document's viewport, in CSS pixels. */
  interface Point {
    x: number;
    y: number;
  }

  /** Where activating an element would load a new document. */
  interface Destination {
    /** `link` or `form`. */
    kind: string;
    /** Absolute, as the page resolved it (`a.href`, `form.action`). */
    url: string;
    /** A form's method (`get`, `post`, `dialog`); empty for a link. */
    method: string;
  }

  /** Why an element is not ready for input, without words: see `Refusal::error`. */
  type Refusal =
    /** The box has no area. */
    | { kind: 'emptyBox' }
    /** No part of the box is visible. */
    | { kind: 'noVisibleArea' }
    /** The box kept moving for the whole timeout. */
    | { kind: 'keptMoving'; timeoutMs: number }
    /** Input at `point` lands on `by` (`tag#id.class "text"`). */
    | { kind: 'covered'; by: string; point: Point };
}
