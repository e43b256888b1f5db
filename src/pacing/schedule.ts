// The per-origin schedule of one process: when the next request may start, until when the
// origin is paused, and how many failures in a row it has had. A Pacer keeps one for its own
// starts, and MemoryStore's pacing ledger keeps one for a fleet's (ledger.ts).

/** One origin's schedule, in ms since the epoch. */
export interface OriginSchedule {
  /** The earliest start the spacing allows: the last start plus its delay. */
  nextStart: number;
  /** No request starts before this (Retry-After or back-off); 0 when not paused. */
  pausedUntil: number;
  /** Failures since the last success: the back-off exponent. */
  failures: number;
}

/** Internal: the schedules of the origins in use, in a map. */
export class LocalSchedule {
  readonly #map = new Map<string, OriginSchedule>();

  #of(origin: string): OriginSchedule {
    let s = this.#map.get(origin);
    if (s === undefined) this.#map.set(origin, (s = { nextStart: 0, pausedUntil: 0, failures: 0 }));
    return s;
  }

  /** The earliest time a request to `origin` may start: past its spacing and any pause. */
  startAt(origin: string): number {
    const s = this.#map.get(origin);
    return s === undefined ? 0 : Math.max(s.nextStart, s.pausedUntil);
  }

  /** A request started at `at`: the next one waits until `at + delayMs`. */
  started(origin: string, at: number, delayMs: number): void {
    const s = this.#of(origin);
    s.nextStart = Math.max(s.nextStart, at + delayMs);
  }

  /** No request starts before `until` (a later pause already in force stays). */
  pause(origin: string, until: number): void {
    const s = this.#of(origin);
    s.pausedUntil = Math.max(s.pausedUntil, until);
  }

  /** A start reserved at `at` that set the next start to `next` never happened: when nothing came after it, the spacing it took is given back. */
  unstart(origin: string, at: number, next: number): void {
    const s = this.#map.get(origin);
    if (s !== undefined && s.nextStart === next) s.nextStart = at;
  }

  /** Counts a failure; returns the failures in a row, this one included. */
  failed(origin: string): number {
    return ++this.#of(origin).failures;
  }

  /** A success: the back-off starts over. */
  succeeded(origin: string): void {
    const s = this.#map.get(origin);
    if (s !== undefined) s.failures = 0;
  }

  /** Drops the origin's schedule when it asks nothing any more (no future start, no pause); true if dropped. */
  forgetIfPast(origin: string, now: number): boolean {
    return this.startAt(origin) <= now && this.#map.delete(origin);
  }

  /** Origins with a schedule. */
  origins(): IterableIterator<string> {
    return this.#map.keys();
  }
}
