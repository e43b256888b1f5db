// Phases 6 and 7 for the trie: where each node goes in the table (depth first from the root,
// so that a child always lies after its parent) and writing it (see the format and node.ts).

import {
  CHILD_LABEL_LONG, CHILD_LABEL_SHIFT, NO_RULE, NODE_CHILD_AREA, NODE_DENSE, NODE_HAS_END, NODE_HAS_PREFIX, NODE_HAS_WILD,
  NODE_KEYED_BIT, NODE_LABEL_CHILDREN, NODE_LABEL_OFF, NODE_LABEL_SHIFT, WILD_SIZE, WILD_STRENGTH,
} from '../../src/wasm/abi';
import { childAreaBytes, childIndexBytes, denseAreaBytes, indexedAreaBytes, writeChildIndex } from '../node';
import { getU32, setU32 } from '../words';
import { take } from './arena';
import {
  nodeCount, nodeDepth, nodeEnd, nodeFirstChild, nodeKeyed, nodeLastChild, nodeLit, nodeNext, nodeParent, nodePrefix,
  nodePrev, nodeRef, nodeWildCount, nodeWildStart, NONE, root, wildList,
} from './trie';

/** The nodes in layout order: all but node 0 when the "/" root leaves it out. */
let order: usize = 0;
let orderedCount = 0;
/** Per node: its offset in the table. */
let nodeOffset: usize = 0;
/** Per node: the child fields of its word (childrenField). */
let nodeChildren: usize = 0;

/** Table offset of the root node (once placed). */
export function rootOffset(): u32 {
  return getU32(nodeOffset, root);
}

/** Places the nodes from table offset `cursor` on; returns where they end. */
export function placeNodes(cursor: i32): i32 {
  order = take(<usize>(nodeCount + 1) << 2);
  nodeOffset = take(<usize>(nodeCount + 1) << 2);
  nodeChildren = take(<usize>(nodeCount + 1) << 2);
  orderedCount = 0;
  if (nodeCount == 0) return cursor;
  const stack = take(<usize>(nodeCount + 1) << 2);
  let stackSize = 0;
  let ordered = 0;
  setU32(stack, stackSize++, root);
  while (stackSize > 0) {
    const node = <i32>getU32(stack, --stackSize);
    setU32(order, ordered++, node);
    setU32(nodeOffset, node, cursor);
    const children = childrenField(node);
    setU32(nodeChildren, node, children);
    cursor += NODE_CHILD_AREA + childAreaBytes(children) + 4 * <i32>popcnt(nodeFields(node)) + WILD_SIZE * getU32(nodeWildCount, node);
    // Children in reverse onto the stack so the first child comes out first.
    for (let child = getU32(nodeLastChild, node); child != NONE; child = getU32(nodePrev, child)) setU32(stack, stackSize++, child);
  }
  orderedCount = ordered;
  return cursor;
}

/** Writes the placed nodes to the table at `out`, whose pool is at `poolOffset`; `wide`: FLAG_WIDE_CHILDREN. */
export function writeNodes(out: usize, poolOffset: u32, wide: bool): void {
  for (let o = 0; o < orderedCount; o++) writeNode(out, <i32>getU32(order, o), poolOffset, wide);
}

/** Writes `node` at its offset (see the format). */
function writeNode(out: usize, node: i32, poolOffset: u32, wide: bool): void {
  const at = out + getU32(nodeOffset, node);
  const parent = getU32(nodeParent, node);
  const from = parent == NONE ? 0 : getU32(nodeDepth, parent);
  const depth = getU32(nodeDepth, node);
  store<u32>(at + NODE_LABEL_OFF, poolOffset + getU32(nodeRef, node) + from);
  const children = getU32(nodeChildren, node);
  const fields = nodeFields(node);
  store<u32>(at + NODE_LABEL_CHILDREN, ((depth - from) << NODE_LABEL_SHIFT) | fields | children);
  const area = at + NODE_CHILD_AREA;
  writeChildren(area, node, children, depth, wide);
  let field = area + <usize>childAreaBytes(children);
  if ((fields & NODE_HAS_PREFIX) != 0) store<u32>(field, getU32(nodePrefix, node)), (field += 4);
  if ((fields & NODE_HAS_END) != 0) store<u32>(field, getU32(nodeEnd, node)), (field += 4);
  const wildCount = getU32(nodeWildCount, node);
  if ((fields & NODE_HAS_WILD) != 0) store<u32>(field, (wildCount << 1) | (getU32(nodeKeyed, node) != 0 ? NODE_KEYED_BIT : 0)), (field += 4);
  // The wildcard list follows the fields.
  const wildStart = <i32>getU32(nodeWildStart, node);
  for (let w = 0; w < <i32>wildCount; w++) store<u32>(field + (<usize>w << 2) + WILD_STRENGTH, getU32(wildList, wildStart + w));
}

/** Writes the child area at `area` of `node` (at `depth`), whose word has `children` (childrenField). */
function writeChildren(area: usize, node: i32, children: u32, depth: u32, wide: bool): void {
  if ((children & NODE_DENSE) != 0) {
    const lo = firstByteOf(getU32(nodeFirstChild, node), depth);
    store<u8>(area, <u8>lo);
    for (let child = getU32(nodeFirstChild, node); child != NONE; child = getU32(nodeNext, child)) {
      store<u32>(area + 4 + (<usize>(firstByteOf(child, depth) - lo) << 2), childEntry(child, depth, wide));
    }
    return;
  }
  const c = <i32>children;
  const offsets = area + childIndexBytes(c);
  const firstBytes = memory.data(256); // staging: at most 256 children
  let index = 0;
  for (let child = getU32(nodeFirstChild, node); child != NONE; child = getU32(nodeNext, child)) {
    store<u8>(firstBytes + index, <u8>firstByteOf(child, depth));
    store<u32>(offsets + (<usize>index << 2), childEntry(child, depth, wide));
    index++;
  }
  writeChildIndex(area, firstBytes, c);
}

/** The NODE_HAS_* fields a node needs. */
function nodeFields(node: i32): u32 {
  return (getU32(nodePrefix, node) != NO_RULE ? NODE_HAS_PREFIX : 0)
    | (getU32(nodeEnd, node) != NO_RULE ? NODE_HAS_END : 0)
    | (getU32(nodeWildCount, node) != 0 || getU32(nodeKeyed, node) != 0 ? NODE_HAS_WILD : 0);
}

/** First byte of `child`'s label, below a parent at `parentDepth`. */
function firstByteOf(child: u32, parentDepth: u32): u32 {
  return load<u8>(<usize>getU32(nodeLit, child) + parentDepth);
}

/** A child's entry in its parent (see the format): its offset, and its label length unless `wide`. */
function childEntry(child: u32, parentDepth: u32, wide: bool): u32 {
  if (wide) return getU32(nodeOffset, child);
  const labelLen = getU32(nodeDepth, child) - parentDepth;
  return getU32(nodeOffset, child) | ((labelLen < <u32>CHILD_LABEL_LONG ? labelLen : <u32>CHILD_LABEL_LONG) << CHILD_LABEL_SHIFT);
}

/**
 * The child fields of `node`'s word (see the format): NODE_DENSE | the span of its children's
 * first bytes when a dense area takes no more room than an index (node.ts), else its child
 * count.
 */
function childrenField(node: i32): u32 {
  const count = childCount(node);
  if (count == 0) return 0;
  const depth = getU32(nodeDepth, node);
  const span = <i32>(firstByteOf(getU32(nodeLastChild, node), depth) - firstByteOf(getU32(nodeFirstChild, node), depth)) + 1;
  return denseAreaBytes(span) <= indexedAreaBytes(count) ? NODE_DENSE | span : count;
}

function childCount(node: i32): i32 {
  let count = 0;
  for (let c = getU32(nodeFirstChild, node); c != NONE; c = getU32(nodeNext, c)) count++;
  return count;
}
