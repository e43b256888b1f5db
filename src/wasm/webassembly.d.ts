// The part of the WebAssembly JS API this package uses. @types/node does not declare it and
// lib.dom would bring every browser global into scope; this file is not part of the public
// types (no exported signature mentions WebAssembly).

declare namespace WebAssembly {
  class Module {
    constructor(bytes: BufferSource);
    static imports(module: Module): { module: string; name: string; kind: string }[];
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number; shared?: boolean });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  function compile(bytes: BufferSource): Promise<Module>;
  function instantiate(module: Module, imports?: Record<string, Record<string, unknown>>): Promise<Instance>;
}
type BufferSource = ArrayBufferView | ArrayBuffer;
