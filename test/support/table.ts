// The tests' one reader of table images (the format is src/wasm/abi.ts): for tests that check
// what a table holds, or damage a field on purpose and expect fromBytes to refuse it. The
// library itself never reads a table outside the kernel; a test that needs a field of one asks
// readTable for it (or for the field's offset, to change it), so a format change is made here
// once. CRC-32C is computed bit by bit, apart from the kernel's table-driven code
// (assembly/checksum.ts), so that the tests check the format.
import {
  AUTOMATON_FIRST_CHILD, AUTOMATON_NODES, CHILD_LABEL_LONG, CHILD_LABEL_SHIFT, CHILD_OFFSET_MASK, FILTER_AUTOMATA,
  FILTER_BUCKET_BITS, FILTER_EXACT_GATES, FILTER_KEY_COUNT, FILTER_KEYS_OFF, FILTER_LAZY, FILTER_SINGLES, FLAG_WIDE_CHILDREN,
  HDR_CHECKSUM, HDR_FILTER_OFF, HDR_FLAGS, HDR_ROOT_OFF, HDR_RULES_OFF, HDR_TOTAL_LEN, HEADER_SIZE, KEY_LEN, KEY_POOL_OFF,
  KEY_RULE_ANCHORED, KEY_RULE_COUNT, KEY_RULE_RECORD, KEY_RULE_SIZE, KEY_RULE_STRENGTH, KEY_RULE_WORD, KEY_RULES_OFF, KEY_SIZE,
  NODE_CHILD_AREA, NODE_COUNT_MASK, NODE_DENSE, NODE_LABEL_CHILDREN, NODE_LABEL_OFF, NODE_LABEL_SHIFT, RULE_PAT_END, RULE_SIZE,
  SEGMENTS_COUNT, SEGMENTS_KEYS, SEGMENTS_LITERAL,
} from '../../src/wasm/abi.js';

/** Where the header's fields are, for tests that change one (the length, the checksum). */
export const HEADER = { size: HEADER_SIZE, totalLength: HDR_TOTAL_LEN, flags: HDR_FLAGS, checksum: HDR_CHECKSUM } as const;

/** A trie node: where its fields are and what they hold. */
export interface TrieNode {
  at: number;
  /** Offsets of its label field and of its label-and-children word. */
  labelAt: number;
  wordAt: number;
  labelLength: number;
  /** Where its label starts in the image. */
  label: number;
  /** How the child area finds a child: a dense span, or an index of 4, 16 or 32 (bitmap) bytes. */
  area: 'dense' | 'index4' | 'index16' | 'bitmap';
  /** Child entries (a dense area's holes, 0, left out), in first-byte order. */
  children: ChildEntry[];
}

/** A child entry of a node's child area. */
export interface ChildEntry {
  /** Offset of the entry. */
  at: number;
  entry: number;
  /** The child's offset. */
  child: number;
  /** The entry's label length field: CHILD_LABEL_LONG when the child holds it. */
  labelLength: number;
  long: boolean;
}

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
  /** Offset of its rule word, and of its segment record (0: none) and that record's fields. */
  wordAt: number;
  record: number;
  countAt: number;
  keysAt: number;
}

/** The key filter: keys in filter order, where each class starts, the keyed rules. */
export interface FilterImage {
  at: number;
  keys: string[];
  /** keys[singles, lazy): one-byte keys the pass looks for; keys[lazy, ...): lazy ones. */
  singles: number;
  lazy: number;
  /** Offset of the first-lazy-key field. */
  lazyAt: number;
  exactGates: boolean;
  automata: boolean;
  /** Offset of the forward automaton, 0 when there is none. */
  automataAt: number;
  /** By strength number. */
  rules: KeyedRule[];
}

/** An automaton: its node count and where its arrays start. */
export interface AutomatonImage {
  nodes: number;
  firstChildAt: number;
  failAt: number;
  keyNodeAt: number;
}

/** A table image as the tests read it; `view` writes to the image. */
export class TableReader {
  readonly view: DataView;

  constructor(readonly image: Uint8Array) {
    this.view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  }

  u32(at: number): number {
    return this.view.getUint32(at, true);
  }

  setU32(at: number, value: number): void {
    this.view.setUint32(at, value >>> 0, true);
  }

  get checksum(): number {
    return this.u32(HDR_CHECKSUM);
  }

  /** Child entries are plain offsets (FLAG_WIDE_CHILDREN). */
  get wideChildren(): boolean {
    return (this.u32(HDR_FLAGS) & FLAG_WIDE_CHILDREN) !== 0;
  }

  /** Offset of the root node (0: no rules) and of the filter (0: none). */
  get rootAt(): number {
    return this.u32(HDR_ROOT_OFF);
  }

  get filterAt(): number {
    return this.u32(HDR_FILTER_OFF);
  }

  /** Offset of the pattern-end field of rule `r` (a strength number), and what it holds. */
  patternEndAt(r: number): number {
    return this.u32(HDR_RULES_OFF) + r * RULE_SIZE + RULE_PAT_END;
  }

  patternEnd(r: number): number {
    return this.u32(this.patternEndAt(r));
  }

  node(at: number): TrieNode {
    const word = this.u32(at + NODE_LABEL_CHILDREN);
    const count = word & NODE_COUNT_MASK;
    const dense = (word & NODE_DENSE) !== 0;
    const area = dense ? 'dense' : count <= 4 ? 'index4' : count <= 16 ? 'index16' : 'bitmap';
    // The entries follow the dense area's first byte (and padding), or the index.
    const entries = at + NODE_CHILD_AREA + (area === 'dense' || area === 'index4' ? 4 : area === 'index16' ? 16 : 32);
    const children: ChildEntry[] = [];
    for (let c = 0; c < count; c++) {
      const entryAt = entries + 4 * c;
      const entry = this.u32(entryAt);
      if (entry === 0) continue;
      const wide = this.wideChildren;
      const labelLength = wide ? 0 : entry >>> CHILD_LABEL_SHIFT;
      children.push({ at: entryAt, entry, child: wide ? entry : entry & CHILD_OFFSET_MASK, labelLength, long: !wide && labelLength === CHILD_LABEL_LONG });
    }
    return { at, labelAt: at + NODE_LABEL_OFF, wordAt: at + NODE_LABEL_CHILDREN, labelLength: word >>> NODE_LABEL_SHIFT, label: this.u32(at + NODE_LABEL_OFF), area, children };
  }

  /** Points child entry `entry` at the node at `child`, its label length field as it was. */
  setChild(entry: ChildEntry, child: number): void {
    this.setU32(entry.at, this.wideChildren ? child : (entry.entry & ~CHILD_OFFSET_MASK) | child);
  }

  /** Writes `length` into the label length field of child entry `entry`. */
  setEntryLabelLength(entry: ChildEntry, length: number): void {
    this.setU32(entry.at, (entry.entry & CHILD_OFFSET_MASK) | (length << CHILD_LABEL_SHIFT));
  }

  /** Writes `length` as the label length of `node`, and `offset` as where its label starts in the image. */
  setLabel(node: TrieNode, length: number, offset = this.u32(node.labelAt)): void {
    this.setU32(node.labelAt, offset);
    this.setU32(node.wordAt, (this.u32(node.wordAt) & ((1 << NODE_LABEL_SHIFT) - 1)) | (length << NODE_LABEL_SHIFT));
  }

  /** Every node, depth first from the root. */
  nodes(): TrieNode[] {
    const nodes: TrieNode[] = [];
    const visit = (at: number) => {
      const node = this.node(at);
      nodes.push(node);
      for (const child of node.children) visit(child.child);
    };
    if (this.rootAt !== 0) visit(this.rootAt);
    return nodes;
  }

  /** The key filter, or undefined when the table has none. */
  filter(): FilterImage | undefined {
    const filter = this.filterAt;
    if (filter === 0) return undefined;
    const image = this.image;
    const keysAt = this.u32(filter + FILTER_KEYS_OFF);
    const keyCount = this.u32(filter + FILTER_KEY_COUNT);
    const keyAt = (j: number) => keysAt + j * KEY_SIZE;
    const keys = Array.from({ length: keyCount }, (_, j) => {
      const at = this.u32(keyAt(j) + KEY_POOL_OFF);
      return String.fromCharCode(...image.subarray(at, at + this.view.getUint16(keyAt(j) + KEY_LEN, true)));
    });
    const rules: KeyedRule[] = [];
    keys.forEach((home, j) => {
      const list = this.u32(keyAt(j) + KEY_RULES_OFF);
      for (let i = 0; i < this.u32(keyAt(j) + KEY_RULE_COUNT); i++) {
        const rule = this.u32(list + i * KEY_RULE_SIZE + KEY_RULE_STRENGTH);
        const wordAt = list + i * KEY_RULE_SIZE + KEY_RULE_WORD;
        const word = this.u32(wordAt);
        if ((word & KEY_RULE_RECORD) === 0) {
          rules.push({ rule, home, segments: [home], literal: word >>> 2, anchored: (word & KEY_RULE_ANCHORED) !== 0, wordAt, record: 0, countAt: 0, keysAt: 0 });
          continue;
        }
        const record = word & ~KEY_RULE_RECORD;
        const count = this.u32(record + SEGMENTS_COUNT);
        const segments = Array.from({ length: count }, (_, s) => keys[this.u32(record + SEGMENTS_KEYS + 4 * s)]);
        const literal = this.u32(record + SEGMENTS_LITERAL);
        rules.push({ rule, home, segments, literal: literal >>> 1, anchored: (literal & 1) !== 0, wordAt, record, countAt: record + SEGMENTS_COUNT, keysAt: record + SEGMENTS_KEYS });
      }
    });
    rules.sort((a, b) => a.rule - b.rule);
    return {
      at: filter,
      keys,
      singles: this.u32(filter + FILTER_SINGLES),
      lazy: this.u32(filter + FILTER_LAZY),
      lazyAt: filter + FILTER_LAZY,
      exactGates: (this.u32(filter + FILTER_BUCKET_BITS) & FILTER_EXACT_GATES) !== 0,
      automata: this.u32(filter + FILTER_AUTOMATA) !== 0,
      automataAt: this.u32(filter + FILTER_AUTOMATA),
      rules,
    };
  }

  /** The automaton at `at` (the forward one is at FilterImage.automataAt). */
  automaton(at: number): AutomatonImage {
    const nodes = this.u32(at + AUTOMATON_NODES);
    const firstChildAt = at + AUTOMATON_FIRST_CHILD;
    const failAt = firstChildAt + 4 * (nodes + 1);
    // After the failure links, the outputs (a u32 per node), then a node per key.
    return { nodes, firstChildAt, failAt, keyNodeAt: failAt + 8 * nodes };
  }
}

/** A keyed rule's word that names a segment record at `record`. */
export function recordWord(record: number): number {
  return record | KEY_RULE_RECORD;
}

/** A reader over `image` (not a copy: what it writes changes the image). */
export function readTable(image: Uint8Array): TableReader {
  return new TableReader(image);
}

/** The key filter of `image`, or undefined when the table has none. */
export function filterOf(image: Uint8Array): FilterImage | undefined {
  return readTable(image).filter();
}

/** CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `bytes`. */
export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0x82f63b78 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** What the checksum field of `image` should hold: the CRC-32C of the image with the field zeroed. */
export function imageChecksum(image: Uint8Array): number {
  const zeroed = image.slice();
  zeroed.fill(0, HDR_CHECKSUM, HDR_CHECKSUM + 4);
  return crc32c(zeroed);
}

/**
 * Writes the checksum of an image a test damaged on purpose (and returns it), so that what
 * fromBytes checks next is the structure.
 */
export function reseal(image: Uint8Array): Uint8Array {
  readTable(image).setU32(HDR_CHECKSUM, imageChecksum(image));
  return image;
}
