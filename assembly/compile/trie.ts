// Phase 5, trie: the radix trie over the literal parts, built in the work area from them in
// byte order (a structure of arrays, one u32 per node in each), with each rule at the node of
// its literal part: a prefix or end rule as the node's own, a wildcard rule in the node's
// wildcard list, or counted there when it hangs off a key instead.

import { NO_KEY, NO_RULE, NODE_LABEL_SHIFT } from '../../src/wasm/abi';
import { commonPrefix } from '../bytes';
import { getU32, getU64, setU32, setU64 } from '../words';
import { take } from './arena';
import { ruleHome } from './keys';
import { normUsed } from './patterns';
import { byLiteral, litKey, litLen, shape, SHAPE_END, SHAPE_WILD } from './shapes';
import { sortPrefixed } from './sort';
import { litPtr, patternOf, poolOut } from './strength';

/** No node. */
export const NONE: u32 = 0xffffffff;

// What this phase hands on: per node (u32 arrays in the work area) ...
/** Length of the node's path. */
export let nodeDepth: usize = 0;
/** Pool offset of a pattern that starts with the node's path. */
export let nodeRef: usize = 0;
/** Address of that pattern's normalised bytes (the pool is written last). */
export let nodeLit: usize = 0;
/** Its prefix rule and end rule (strength numbers), or NO_RULE. */
export let nodePrefix: usize = 0;
export let nodeEnd: usize = 0;
/** Its wildcard list: wildList[nodeWildStart, + nodeWildCount). */
export let nodeWildStart: usize = 0;
export let nodeWildCount: usize = 0;
/** Its wildcard rules reached through the filter's keys instead. */
export let nodeKeyed: usize = 0;
/** Its children, first to last by first byte, as a doubly linked list. */
export let nodeFirstChild: usize = 0;
export let nodeLastChild: usize = 0;
export let nodeNext: usize = 0;
export let nodePrev: usize = 0;
export let nodeParent: usize = 0;
// ... and:
export let nodeCount = 0;
/** The wildcard lists of the nodes (strength numbers, ascending in each). */
export let wildList: usize = 0;
/** The node the table's root is: 0, or its one child "/" (see the format). */
export let root = 0;

/** Longest label a node holds (NODE_LABEL_CHILDREN keeps 32 - NODE_LABEL_SHIFT bits of length). */
const MAX_LABEL = (1 << (32 - NODE_LABEL_SHIFT)) - 1;

/** Builds the trie of the `m` rules, and chooses its root. */
export function buildTrie(m: i32): void {
  const maxNodes = 2 * m + 1 + <i32>(normUsed / <u32>MAX_LABEL);
  takeNodes(maxNodes);
  const stack = take(<usize>maxNodes << 2);
  wildList = take(<usize>m << 2);
  nodeCount = 0;
  root = 0;
  if (m == 0) return;
  const litOrder = take(<usize>m << 3);
  for (let k = 0; k < m; k++) setU64(litOrder, k, k);
  sortPrefixed(litOrder, take(<usize>m << 3), m, litKey, litLen, litPtr);
  let wildUsed = 0;
  let stackSize = 0;
  setU32(stack, stackSize++, newNode(0, 0, 0));
  let prevPattern: usize = 0;
  let prevLen = 0;
  let firstByte = -1; // of the first non-empty literal part: all start with it when the root has one child
  let i = 0;
  while (i < m) {
    // A run of rules with the same literal part: one node.
    const first = <u32>getU64(litOrder, i);
    const lit = patternOf(first);
    const len = <i32>getU32(litLen, first);
    let node = 0;
    if (len > 0) {
      if (firstByte < 0) firstByte = load<u8>(lit);
      const shared = prevLen == 0 ? 0 : commonPrefix(prevPattern, lit, min(prevLen, len));
      while (<i32>getU32(nodeDepth, getU32(stack, stackSize - 1)) > shared) stackSize--;
      // The node of the literal part, and the nodes of its path that were not there yet.
      stackSize = addPath(stack, stackSize, shared, len, first, lit);
      node = <i32>getU32(stack, stackSize - 1);
      prevPattern = lit;
      prevLen = len;
    }
    setU32(nodeWildStart, node, wildUsed);
    for (; i < m; i++) {
      const k = <u32>getU64(litOrder, i);
      if (k != first && byLiteral(first, k) != 0) break;
      wildUsed = addRule(node, k, wildUsed);
    }
    setU32(nodeWildCount, node, wildUsed - getU32(nodeWildStart, node));
  }
  if (firstByte == 0x2f) chooseSlashRoot();
}

/** Takes the node arrays for `maxNodes` nodes. */
function takeNodes(maxNodes: i32): void {
  nodeDepth = take(<usize>maxNodes << 2);
  nodeRef = take(<usize>maxNodes << 2);
  nodeLit = take(<usize>maxNodes << 2);
  nodePrefix = take(<usize>maxNodes << 2);
  nodeEnd = take(<usize>maxNodes << 2);
  nodeWildStart = take(<usize>maxNodes << 2);
  nodeWildCount = take(<usize>maxNodes << 2);
  nodeKeyed = take(<usize>maxNodes << 2);
  nodeFirstChild = take(<usize>maxNodes << 2);
  nodeLastChild = take(<usize>maxNodes << 2);
  nodeNext = take(<usize>maxNodes << 2);
  nodePrev = take(<usize>maxNodes << 2);
  nodeParent = take(<usize>maxNodes << 2);
}

/**
 * Adds the nodes for the literal part `lit` (`len` bytes, of rule `first`) below the node on
 * top of `stack` (`size` nodes, the path of the previous literal part up to depth `shared`,
 * the bytes the two have in common, or deeper when the top node's edge must be split there);
 * returns the new size, with the literal part's node on top.
 */
function addPath(stack: usize, size: i32, shared: i32, len: i32, first: u32, lit: usize): i32 {
  let top = <i32>getU32(stack, size - 1);
  if (<i32>getU32(nodeDepth, top) < shared) {
    // The previous path's node below `top` hangs below depth `shared`: split its edge there.
    const below = <i32>getU32(nodeLastChild, top);
    const middle = newNode(shared, getU32(nodeRef, below), <usize>getU32(nodeLit, below));
    splitLastChild(top, middle);
    setU32(stack, size++, middle);
    top = middle;
  }
  // A label has at most MAX_LABEL bytes: an enormous literal gets a chain of nodes.
  while (len - <i32>getU32(nodeDepth, top) > MAX_LABEL) {
    const link = newNode(getU32(nodeDepth, top) + MAX_LABEL, getU32(poolOut, first), lit);
    appendChild(top, link);
    setU32(stack, size++, link);
    top = link;
  }
  const node = newNode(len, getU32(poolOut, first), lit);
  appendChild(top, node);
  setU32(stack, size++, node);
  return size;
}

/** Puts rule `k` at `node`, whose wildcard list ends at wildList[wildUsed]; returns where it ends now. */
function addRule(node: i32, k: u32, wildUsed: i32): i32 {
  const s = getU32(shape, k);
  if (s == SHAPE_WILD) {
    if (getU32(ruleHome, k) != NO_KEY) setU32(nodeKeyed, node, getU32(nodeKeyed, node) + 1);
    else setU32(wildList, wildUsed++, k);
  } else if (s == SHAPE_END) {
    setU32(nodeEnd, node, min(getU32(nodeEnd, node), k));
  } else {
    setU32(nodePrefix, node, min(getU32(nodePrefix, node), k));
  }
  return wildUsed;
}

/**
 * A root whose only child is "/" (every non-empty literal part starts with '/') and that has
 * no wildcard list is left out: that child is the root, and takes the root's prefix rule and
 * keyed rules (see the format).
 */
function chooseSlashRoot(): void {
  if (getU32(nodeWildCount, 0) != 0) return;
  const only = <i32>getU32(nodeFirstChild, 0);
  if (only == NONE || getU32(nodeNext, only) != NONE || getU32(nodeDepth, only) != 1) return;
  root = only;
  setU32(nodePrefix, root, min(getU32(nodePrefix, root), getU32(nodePrefix, 0)));
  setU32(nodeKeyed, root, getU32(nodeKeyed, root) + getU32(nodeKeyed, 0));
}

function newNode(depth: u32, ref: u32, lit: usize): i32 {
  const n = nodeCount++;
  setU32(nodeDepth, n, depth);
  setU32(nodeRef, n, ref);
  setU32(nodeLit, n, <u32>lit);
  setU32(nodePrefix, n, NO_RULE);
  setU32(nodeEnd, n, NO_RULE);
  setU32(nodeWildStart, n, 0);
  setU32(nodeWildCount, n, 0);
  setU32(nodeKeyed, n, 0);
  setU32(nodeFirstChild, n, NONE);
  setU32(nodeLastChild, n, NONE);
  setU32(nodeNext, n, NONE);
  setU32(nodePrev, n, NONE);
  setU32(nodeParent, n, NONE);
  return n;
}

function appendChild(parent: i32, child: i32): void {
  setU32(nodeParent, child, parent);
  const last = getU32(nodeLastChild, parent);
  setU32(nodePrev, child, last);
  setU32(nodeNext, child, NONE);
  if (last == NONE) setU32(nodeFirstChild, parent, child);
  else setU32(nodeNext, last, child);
  setU32(nodeLastChild, parent, child);
}

/** Puts `middle` where the last child of `parent` was, and that child under `middle`. */
function splitLastChild(parent: i32, middle: i32): void {
  const child = <i32>getU32(nodeLastChild, parent);
  const prev = getU32(nodePrev, child);
  setU32(nodeParent, middle, parent);
  setU32(nodePrev, middle, prev);
  setU32(nodeNext, middle, NONE);
  if (prev == NONE) setU32(nodeFirstChild, parent, middle);
  else setU32(nodeNext, prev, middle);
  setU32(nodeLastChild, parent, middle);
  setU32(nodeFirstChild, middle, NONE);
  setU32(nodeLastChild, middle, NONE);
  appendChild(middle, child);
}
