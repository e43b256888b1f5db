// The rate behind the progress line's ETA. Input is decided in bursts (a batch waits for its
// origins' robots.txt, then many lines go at once), so the rate since the last sample swings
// widely: the rate used is bytes over time, both weighted down exponentially with age
// (RATE_WINDOW_MS), measured from one burst to the next so that the gap between two bursts
// reads as burstiness, not as a slowdown, unless it outlasts BURST_GAP_MS. Pure: the caller
// passes the clock, so tests give concrete times.

/** How fast old samples fade: a burst or a stall much shorter than this moves the rate little. */
export const RATE_WINDOW_MS = 10_000;
/** No ETA until the rate has been measured this long: the first samples say too little. */
export const WARMUP_MS = 1_000;
/** A wait for the next burst up to this long is not counted as slowness until the burst comes. */
export const BURST_GAP_MS = 1_000;

/** What the rate estimate has seen: weighted bytes and milliseconds up to the last progress. */
export interface RateState {
  /** When the first bytes were done (undefined until then): the wait before is start-up, not rate. */
  readonly firstMs: number | undefined;
  /** When `bytes` last grew. */
  readonly lastMs: number;
  readonly bytes: number;
  readonly weightedBytes: number;
  readonly weightedMs: number;
}

/** A rate estimate with nothing done yet. */
export function startRate(): RateState {
  return { firstMs: undefined, lastMs: 0, bytes: 0, weightedBytes: 0, weightedMs: 0 };
}

/** The estimate once `bytes` are done at time `ms`. */
export function nextRate(state: RateState, bytes: number, ms: number): RateState {
  // No progress, or no time passed: the bytes count in the next sample's interval.
  if (bytes <= state.bytes || ms <= state.lastMs) return state;
  if (state.firstMs === undefined) return { ...state, firstMs: ms, lastMs: ms, bytes };
  const dt = ms - state.lastMs;
  const fade = Math.exp(-dt / RATE_WINDOW_MS);
  return {
    firstMs: state.firstMs, lastMs: ms, bytes,
    weightedBytes: state.weightedBytes * fade + (bytes - state.bytes),
    weightedMs: state.weightedMs * fade + dt,
  };
}

/** Whole seconds at `nowMs` until `total` bytes are done at the weighted rate; undefined while warming up. */
export function etaSeconds(state: RateState, total: number, nowMs: number): number | undefined {
  if (state.firstMs === undefined || state.lastMs - state.firstMs < WARMUP_MS) return undefined;
  const stalled = Math.max(nowMs - state.lastMs - BURST_GAP_MS, 0);
  return Math.ceil((Math.max(total - state.bytes, 0) * (state.weightedMs + stalled)) / state.weightedBytes / 1000);
}
