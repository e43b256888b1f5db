// Documented examples (README code blocks, TSDoc @example) state their output in `// →` comments.

/** The output lines an example's `// →` comments state, in order. */
export function statedOutput(code: string): string[] {
  return [...code.matchAll(/\/\/ → (.*)$/gm)].map((m) => m[1]);
}
