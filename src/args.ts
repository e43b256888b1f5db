// Checks of caller arguments: misuse is a TypeError that says what was wrong.

/** Throws a TypeError unless `value` is a string (`name` says which argument). */
export function requireString(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new TypeError(`robots-wasm: ${name} must be a string, got ${value === null ? 'null' : typeof value}`);
  }
}

/** `value` when it is an integer of at least `min`, `fallback` when undefined; otherwise a TypeError naming the option. */
export function integerOption(value: unknown, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`robots-wasm: ${name} must be an integer of at least ${min}, got ${String(value)}`);
  }
  return value;
}
