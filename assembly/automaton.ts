// Aho-Corasick automata over a filter's keys: what finds where each key first and last occurs
// when the key pass (match.ts, findKeys) gives up, in time linear in the path whatever the keys.
// The pass compares the keys of a bucket at each candidate, which an adversary can make cost
// more than a few steps per byte (many keys with one gate pair, long keys that nearly occur
// everywhere); an automaton reads each byte once. The forward automaton, over the keys, gives
// each key's first occurrence; the backward one, over the reversed keys and run from the path's
// end, its last. Only a filter whose pass can give up and that has more than AUTOMATA_MIN_KEYS
// keys the pass looks for carries them: a smaller one searches for each key instead (match.ts).
//
// Layout (see src/wasm/abi.ts): node count N | first child (N + 1 u32: node v's children are the
// nodes [first[v], first[v + 1]), in byte order; nodes are numbered breadth first, so a child
// comes after its parent and a failure link points to a shallower node) | failure link (N u32)
// | output (N u32: the key of the deepest node on v's failure chain, v included, that ends a
// key, or NO_KEY) | key node (one u32 per filter key: the node where it ends) | edge bytes (N,
// padded to 4). A key is reported once per pass: the keys on an output chain past a key that
// was already reported were reported with it, so a pass costs O(path + keys).

import { AUTOMATON_FIRST_CHILD, AUTOMATON_NODES, KEY_LEN, KEY_SIZE, NO_KEY } from '../src/wasm/abi';
import { commonPrefix } from './bytes';
import { hasOccurred, lastAt, markFirst, setLast } from './occurrences';
import { getU32, setU32, u32At } from './words';

/** The compiler's description of one key for an automaton: bytes, length, filter index. */
export const AUTOMATON_INPUT_SIZE = 12;

/** Records key `j` of an automaton's input: its bytes at `at`, `len` of them, filter index `id`. */
export function setAutomatonInput(input: usize, j: i32, at: usize, len: u32, id: u32): void {
  const entry = input + <usize>j * AUTOMATON_INPUT_SIZE;
  store<u32>(entry, <u32>at);
  store<u32>(entry + 4, len);
  store<u32>(entry + 8, id);
}

// @ts-ignore: decorator
@inline function inputAt(input: usize, j: i32): usize {
  return <usize>load<u32>(input + <usize>j * AUTOMATON_INPUT_SIZE);
}

// @ts-ignore: decorator
@inline function inputLen(input: usize, j: i32): i32 {
  return <i32>load<u32>(input + <usize>j * AUTOMATON_INPUT_SIZE + 4);
}

// @ts-ignore: decorator
@inline function inputId(input: usize, j: i32): u32 {
  return load<u32>(input + <usize>j * AUTOMATON_INPUT_SIZE + 8);
}

/** Byte `d` of input key `j`, counted from its end when `backward`. */
// @ts-ignore: decorator
@inline function inputByte(input: usize, j: i32, d: i32, backward: bool): u32 {
  return load<u8>(inputAt(input, j) + <usize>(backward ? inputLen(input, j) - 1 - d : d));
}

/**
 * Nodes of the automaton over the `count` keys of `input` (sorted in its byte order, reversed
 * when `backward`): the root and one per distinct prefix.
 */
export function automatonNodes(input: usize, count: i32, backward: bool): i32 {
  let nodes = 1;
  for (let j = 0; j < count; j++) {
    let shared = 0;
    if (j > 0) {
      const n = min(inputLen(input, j - 1), inputLen(input, j));
      if (!backward) shared = commonPrefix(inputAt(input, j - 1), inputAt(input, j), n);
      else while (shared < n && inputByte(input, j - 1, shared, true) == inputByte(input, j, shared, true)) shared++;
    }
    nodes += inputLen(input, j) - shared;
  }
  return nodes;
}

/**
 * Bytes of an automaton of `nodes` nodes in a filter of `keyCount` keys (u64: the validator
 * sizes one from an image's counts, which must not wrap).
 */
// @ts-ignore: decorator
@inline export function automatonSize(nodes: u64, keyCount: u64): u64 {
  return AUTOMATON_FIRST_CHILD + 4 * (nodes + 1) + 8 * nodes + 4 * keyCount + ((nodes + 3) & ~3);
}

/** automatonSize of a compiled table's automaton, whose sizes are i32. */
// @ts-ignore: decorator
@inline export function automatonBytes(nodes: i32, keyCount: i32): i32 {
  return <i32>automatonSize(<u64>nodes, <u64>keyCount);
}

// The arrays of the automaton the last view() call named.
let first: usize = 0;
let fail: usize = 0;
let out: usize = 0;
let keyNode: usize = 0;
let bytes: usize = 0;

/** Points the arrays above at the automaton of `nodes` nodes at `at`, in a filter of `keyCount` keys. */
function view(at: usize, nodes: i32, keyCount: i32): void {
  first = at + AUTOMATON_FIRST_CHILD;
  fail = first + 4 * <usize>(nodes + 1);
  out = fail + 4 * <usize>nodes;
  keyNode = out + 4 * <usize>nodes;
  bytes = keyNode + 4 * <usize>keyCount;
}

/** The child of node `v` whose edge byte is `c`, or 0 (the root is no one's child). */
// @ts-ignore: decorator
@inline function childOf(v: u32, c: u32): u32 {
  let lo = getU32(first, v);
  let hi = getU32(first, v + 1);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const b = <u32>load<u8>(bytes + mid);
    if (b == c) return mid;
    if (b < c) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/**
 * The state after byte `c` in state `state`: its child for c, else its failure link's, ..., else
 * the root (whose missing children lead back to itself).
 */
// @ts-ignore: decorator
@inline function step(state: u32, c: u32): u32 {
  while (true) {
    const child = childOf(state, c);
    if (child != 0 || state == 0) return child;
    state = getU32(fail, state);
  }
}

/**
 * Writes at `at` the automaton of `nodes` nodes (automatonNodes) over the `count` keys of
 * `input`, in a filter of `keyCount` keys (the memory is zeroed: keys it leaves out end at the
 * root). Breadth first from the sorted keys: a node stands for the keys [lo, hi) that share its
 * prefix, held in its failure and output words until it is expanded.
 */
export function writeAutomaton(at: usize, input: usize, count: i32, nodes: i32, keyCount: i32, backward: bool): void {
  view(at, nodes, keyCount);
  store<u32>(at + AUTOMATON_NODES, nodes);
  setU32(fail, 0, 0);
  setU32(out, 0, count);
  let next: u32 = 1;
  let depth = 0;
  let levelEnd: u32 = 1;
  for (let v: u32 = 0; v < next; v++) {
    if (v == levelEnd) {
      depth++;
      levelEnd = next;
    }
    let i = <i32>getU32(fail, v);
    const hi = <i32>getU32(out, v);
    setU32(first, v, next);
    let ends = NO_KEY;
    // The prefix itself sorts before its extensions.
    if (i < hi && inputLen(input, i) == depth) {
      ends = inputId(input, i);
      setU32(keyNode, ends, v);
      i++;
    }
    while (i < hi) {
      const c = inputByte(input, i, depth, backward);
      let j = i + 1;
      while (j < hi && inputByte(input, j, depth, backward) == c) j++;
      store<u8>(bytes + next, <u8>c);
      setU32(fail, next, i);
      setU32(out, next, j);
      next++;
      i = j;
    }
    setU32(out, v, ends);
  }
  setU32(first, nodes, nodes);
  // Failure links, breadth first: a node's link is shallower, so it is final when read.
  setU32(fail, 0, 0);
  for (let v: u32 = 0; v < <u32>nodes; v++) {
    for (let child = getU32(first, v); child < getU32(first, v + 1); child++) {
      const link = v == 0 ? 0 : step(getU32(fail, v), <u32>load<u8>(bytes + child));
      setU32(fail, child, link);
      if (getU32(out, child) == NO_KEY) setU32(out, child, getU32(out, link));
    }
  }
}

/**
 * Marks every key of the filter at `keys` that occurs in path[from, len), with its first and
 * last start (occurrences.ts), by the automata at `at`; returns whether any occurs.
 */
export function findByAutomata(at: usize, keys: usize, keyCount: i32, path: usize, from: i32, len: i32): bool {
  const forwardNodes = <i32>u32At(at + AUTOMATON_NODES);
  const backward = at + <usize>automatonBytes(forwardNodes, keyCount);
  if (!run(at, keys, keyCount, path, from, len, false)) return false;
  run(backward, keys, keyCount, path, from, len, true);
  return true;
}

/**
 * One pass of the automaton at `at` over path[from, len): forwards, marking each key's first
 * start; backwards (over the reversed keys, from the end), setting the last start of the keys
 * the forward pass marked.
 */
function run(at: usize, keys: usize, keyCount: i32, path: usize, from: i32, len: i32, backward: bool): bool {
  view(at, <i32>u32At(at + AUTOMATON_NODES), keyCount);
  let state: u32 = 0;
  let found = false;
  for (let n = 0; n < len - from; n++) {
    const i = backward ? len - 1 - n : from + n;
    state = step(state, <u32>load<u8>(path + i));
    // Each key on the output chain ends here (starts here, backwards); past one already
    // reported, the rest were reported with it.
    for (let k = getU32(out, state); k != NO_KEY; k = getU32(out, getU32(fail, getU32(keyNode, k)))) {
      if (backward) {
        if (lastAt(k) >= 0) break;
        setLast(k, i);
      } else {
        if (hasOccurred(k)) break;
        markFirst(k, i + 1 - <i32>load<u16>(keys + <usize>k * KEY_SIZE + KEY_LEN));
        found = true;
      }
    }
  }
  return found;
}
