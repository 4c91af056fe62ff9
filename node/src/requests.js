// @ts-check
// The page's requests, as the browser library reports them, for the machine's `Read::Network`:
// how many requests the page started since the last input are still under way or ended just
// now. The driver carries the count; the machine decides what it means (a verified step's
// shorter quiet window holds only when it is zero).
//
// The ledger mirrors the harness's (harness/src/requests.rs) rule for rule: a request counts
// from the moment the library reports it (`request`, in any frame) until `requestfinished` or
// `requestfailed`; it counts against an input when it was first heard of after the input was
// marked, so one started just before the input but heard of after counts too, which only makes
// the wait longer. A redirect is one request to the harness (one DevTools request id); here
// each hop is a request of its own, reported as finished when the next begins: the count may
// be higher while the chain is under way, but it is zero exactly when the harness's is, and
// zero is all the machine asks about.

/** How many ends of requests are kept for "ended just now" (the newest). */
const ENDS_KEPT = 64;

/** The requests of one page. */
export class Requests {
  /** @type {number | null} when the last input was marked */
  #mark = null;
  /** @type {Map<object, number>} request → when it was first heard of */
  #open = new Map();
  /** @type {number[]} when requests heard of after the mark ended, newest last */
  #ended = [];
  #now;

  /** @param {() => number} [now] the clock, in ms */
  constructor(now = () => performance.now()) {
    this.#now = now;
  }

  /** An input is about to be sent: requests heard of from now on are its own. */
  mark() {
    const now = this.#now();
    this.#mark = now;
    this.#ended = [];
    // What never ended before this input (a long poll, a stream) is not waited for.
    for (const [request, heard] of this.#open) if (heard < now) this.#open.delete(request);
  }

  /** @param {object} request the library's request */
  started(request) {
    if (!this.#open.has(request)) this.#open.set(request, this.#now());
  }

  /** @param {object} request the library's request */
  ended(request) {
    const heard = this.#open.get(request);
    if (heard === undefined) return;
    this.#open.delete(request);
    if (this.#mark !== null && heard >= this.#mark) {
      if (this.#ended.length === ENDS_KEPT) this.#ended.shift();
      this.#ended.push(this.#now());
    }
  }

  /**
   * The requests heard of since the mark that are under way, or ended less than `recentMs`
   * ago.
   * @param {number} recentMs
   */
  pending(recentMs) {
    if (this.#mark === null) return 0;
    const now = this.#now();
    let n = 0;
    for (const heard of this.#open.values()) if (heard >= this.#mark) n += 1;
    for (const end of this.#ended) if (Math.max(0, now - end) < recentMs) n += 1;
    return n;
  }

  /**
   * A ledger fed by a Playwright or Puppeteer page's request events (both report every
   * frame's requests on the page, out-of-process frames included).
   * @param {{ on(event: 'request' | 'requestfinished' | 'requestfailed', listener: (request: any) => void): unknown }} page
   */
  static of(page) {
    const requests = new Requests();
    page.on('request', (request) => requests.started(request));
    page.on('requestfinished', (request) => requests.ended(request));
    page.on('requestfailed', (request) => requests.ended(request));
    return requests;
  }
}
