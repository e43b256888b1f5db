// Comparing two runtimes' answers (Node only: the harness side of the runtime tests).

/** How many answers a result holds (its leaves), so that a summary says what was compared. */
export function countAnswers(value) {
  if (Array.isArray(value)) return value.reduce((n, v) => n + countAnswers(v), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((n, v) => n + countAnswers(v), 0);
  return 1;
}

/** The paths at which `actual` differs from `expected`, each with both values (JSON data only). */
export function diffAnswers(expected, actual, path = '$', out = []) {
  const kind = (v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
  if (kind(expected) !== kind(actual)) {
    out.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  } else if (kind(expected) === 'array' || kind(expected) === 'object') {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      const at = kind(expected) === 'array' ? `${path}[${key}]` : `${path}.${/^[A-Za-z_]\w*$/.test(key) ? key : JSON.stringify(key)}`;
      if (!(key in actual)) out.push(`${at}: missing (expected ${JSON.stringify(expected[key])})`);
      else if (!(key in expected)) out.push(`${at}: unexpected ${JSON.stringify(actual[key])}`);
      else diffAnswers(expected[key], actual[key], at, out);
    }
  } else if (!Object.is(expected, actual)) {
    out.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
  return out;
}

/**
 * Compares `actual` (from runtime `name`) with Node's `expected` answers: returns a summary
 * line when they are equal, and throws with the first differences listed when they are not.
 */
export function assertSameAnswers(name, expected, actual) {
  const differences = diffAnswers(expected, actual);
  if (differences.length > 0) {
    const shown = differences.slice(0, 40).map((d) => `  ${d}`).join('\n');
    const more = differences.length > 40 ? `\n  ... and ${differences.length - 40} more` : '';
    throw new Error(`${name}: ${differences.length} answers differ from Node's:\n${shown}${more}`);
  }
  return `${name}: ${countAnswers(expected)} checks equal to Node's`;
}
