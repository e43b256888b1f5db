// The robots-wasm/pool entry point: worker threads, so Node, Deno and Bun only. Re-exports only.

export { RobotsPool, type PoolOptions } from './pool.js';
