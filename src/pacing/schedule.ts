// The per-origin schedule a Pacer keeps: when the next request may start, until when the origin
// is paused, and how many failures in a row it has had. It is behind an interface so that a
// fleet-wide schedule (every process of a crawl sharing one, through a store) can take the
// place of this process's map without the pacer changing: the queue of waiters and the slots
// held stay local, only these numbers would be shared.

/** One origin's schedule, in ms since the epoch. */
export interface OriginSchedule {
  /** The earliest start the spacing allows: the last start plus its delay. */
  nextStart: number;
  /** No request starts before this (Retry-After or back-off); 0 when not paused. */
  pausedUntil: number;
  /** Failures since the last success: the back-off exponent. */
  failures: number;
}

/** Internal: the schedules of the origins in use, as the Pacer reads and writes them. */
export interface PaceSchedule {
  /** The earliest time a request to `origin` may start: past its spacing and any pause. */
  startAt(origin: string): number;
  /** A request started at `at`: the next one waits until `at + delayMs`. */
  started(origin: string, at: number, delayMs: number): void;
  /** No request starts before `until` (a later pause already in force stays). */
  pause(origin: string, until: number): void;
  /** Counts a failure; returns the failures in a row, this one included. */
  failed(origin: string): number;
  /** A success: the back-off starts over. */
  succeeded(origin: string): void;
  /** Drops the origin's schedule when it asks nothing any more (no future start, no pause); true if dropped. */
  forgetIfPast(origin: string, now: number): boolean;
  /** Origins with a schedule. */
  origins(): IterableIterator<string>;
}

/** Internal: the schedule of one process, in a map. */
export class LocalSchedule implements PaceSchedule {
  readonly #map = new Map<string, OriginSchedule>();

  #of(origin: string): OriginSchedule {
    let s = this.#map.get(origin);
    if (s === undefined) this.#map.set(origin, (s = { nextStart: 0, pausedUntil: 0, failures: 0 }));
    return s;
  }

  startAt(origin: string): number {
    const s = this.#map.get(origin);
    return s === undefined ? 0 : Math.max(s.nextStart, s.pausedUntil);
  }

  started(origin: string, at: number, delayMs: number): void {
    const s = this.#of(origin);
    s.nextStart = Math.max(s.nextStart, at + delayMs);
  }

  pause(origin: string, until: number): void {
    const s = this.#of(origin);
    s.pausedUntil = Math.max(s.pausedUntil, until);
  }

  /** A start reserved at `at` that set the next start to `next` never happened: when nothing came after it, the spacing it took is given back. */
  unstart(origin: string, at: number, next: number): void {
    const s = this.#map.get(origin);
    if (s !== undefined && s.nextStart === next) s.nextStart = at;
  }

  failed(origin: string): number {
    return ++this.#of(origin).failures;
  }

  succeeded(origin: string): void {
    const s = this.#map.get(origin);
    if (s !== undefined) s.failures = 0;
  }

  forgetIfPast(origin: string, now: number): boolean {
    return this.startAt(origin) <= now && this.#map.delete(origin);
  }

  origins(): IterableIterator<string> {
    return this.#map.keys();
  }
}
