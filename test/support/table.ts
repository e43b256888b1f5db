// Reading the key filter of a table image (the format is in assembly/compile.ts), for tests
// that check which keys a table holds and what hangs off them.
import {
  FILTER_AUTOMATA, FILTER_KEY_COUNT, FILTER_KEYS_OFF, FILTER_LAZY, FILTER_SINGLES, HDR_FILTER_OFF, KEY_LEN, KEY_POOL_OFF,
  KEY_RULE_ANCHORED, KEY_RULE_COUNT, KEY_RULE_RECORD, KEY_RULE_SIZE, KEY_RULE_STRENGTH, KEY_RULE_WORD, KEY_RULES_OFF, KEY_SIZE,
  SEGMENTS_COUNT, SEGMENTS_KEYS, SEGMENTS_LITERAL,
} from '../../src/wasm/abi.js';

/** A keyed rule as the filter holds it. */
export interface KeyedRule {
  /** Strength number. */
  rule: number;
  /** The key it hangs off. */
  home: string;
  /** Its literal segments, in pattern order. */
  segments: string[];
  literal: number;
  anchored: boolean;
}

/** The filter of a table image: keys in filter order, where each class starts, the keyed rules. */
export interface FilterImage {
  keys: string[];
  /** keys[singles, lazy): one-byte keys the pass looks for; keys[lazy, ...): lazy ones. */
  singles: number;
  lazy: number;
  automata: boolean;
  rules: KeyedRule[];
}

/** The key filter of `image`, or undefined when the table has none. */
export function filterOf(image: Uint8Array): FilterImage | undefined {
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const filter = u32(HDR_FILTER_OFF);
  if (filter === 0) return undefined;
  const keysAt = u32(filter + FILTER_KEYS_OFF);
  const keyCount = u32(filter + FILTER_KEY_COUNT);
  const keyAt = (j: number) => keysAt + j * KEY_SIZE;
  const keys = Array.from({ length: keyCount }, (_, j) => {
    const at = u32(keyAt(j) + KEY_POOL_OFF);
    return String.fromCharCode(...image.subarray(at, at + view.getUint16(keyAt(j) + KEY_LEN, true)));
  });
  const rules: KeyedRule[] = [];
  keys.forEach((home, j) => {
    const list = u32(keyAt(j) + KEY_RULES_OFF);
    for (let i = 0; i < u32(keyAt(j) + KEY_RULE_COUNT); i++) {
      const rule = u32(list + i * KEY_RULE_SIZE + KEY_RULE_STRENGTH);
      const word = u32(list + i * KEY_RULE_SIZE + KEY_RULE_WORD);
      if ((word & KEY_RULE_RECORD) === 0) {
        rules.push({ rule, home, segments: [home], literal: word >>> 2, anchored: (word & KEY_RULE_ANCHORED) !== 0 });
        continue;
      }
      const record = word & ~KEY_RULE_RECORD;
      const count = u32(record + SEGMENTS_COUNT);
      const segments = Array.from({ length: count }, (_, s) => keys[u32(record + SEGMENTS_KEYS + 4 * s)]);
      const literal = u32(record + SEGMENTS_LITERAL);
      rules.push({ rule, home, segments, literal: literal >>> 1, anchored: (literal & 1) !== 0 });
    }
  });
  rules.sort((a, b) => a.rule - b.rule);
  return { keys, singles: u32(filter + FILTER_SINGLES), lazy: u32(filter + FILTER_LAZY), automata: u32(filter + FILTER_AUTOMATA) !== 0, rules };
}
