/** The listeners started for a list of URL paths (recorder.mjs). */
export interface Recorder {
  /** One URL per path, each on its own port of 127.0.0.1. */
  urls: string[];
  /** The targets received for each URL, as latin1 strings (one char per byte). */
  targets: string[][];
  /** Closes every listener. */
  stop: () => Promise<unknown>;
}

/** Starts one listener per URL path in `paths`. */
export function startRecorder(paths: readonly string[]): Promise<Recorder>;
