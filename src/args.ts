// Checks of caller arguments: misuse is a TypeError that says what was wrong.

/** Throws a TypeError unless `value` is a string (`name` says which argument). */
export function requireString(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') {
    throw new TypeError(`robots-wasm: ${name} must be a string, got ${value === null ? 'null' : typeof value}`);
  }
}
