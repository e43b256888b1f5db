// The compiler's work area: the caller's arena, which the phases take from front to back and
// never give back within one compile. Every array a phase hands the next lives here.
// compileWorkBytes (compile.ts) is the sum of what the phases take; take() traps past the end,
// so that a wrong sum is found out rather than writing past the area.

let arena: usize = 0;
let arenaEnd: usize = 0;

/** Starts a compile in the `bytes` bytes at `work`. */
export function startArena(work: usize, bytes: usize): void {
  arena = work;
  arenaEnd = work + bytes;
}

/** `bytes` bytes of the work area, 8-aligned. */
// @ts-ignore: decorator
@inline export function take(bytes: usize): usize {
  const at = arena;
  arena += (bytes + 7) & ~7;
  if (arena > arenaEnd) unreachable();
  return at;
}
