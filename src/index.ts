// The public surface of robots-wasm, for every runtime: re-exports only. Node-only parts have
// entry points of their own (robots-wasm/pool).

export {
  RobotsTxt, type ContentSignals, type ContentUsageExplanation, type ContentUsageRule, type GroupInfo, type GroupSelection, type Pacing, type RequestRate,
  type RobotsRecord, type RuleInfo, type TimeWindow,
} from './robots-txt.js';
export { Matcher, type DecidingRule, type Explanation } from './matcher.js';
export { type Mode, type ParseOptions, DEFAULT_MAX_BYTES } from './robots/options.js';
export { type RobotsBody } from './robots/body.js';
export { isValidProductToken, productToken } from './robots/agent.js';
export { getPathParamsQuery, normalizePath, escapePattern, type DecidingReading, type ReadingClient } from './url/path.js';
export { init, setWasmMemoryLimit } from './wasm/kernel.js';
export { setTableBudget, wasmMemoryStats, type WasmMemoryStats } from './wasm/tables.js';
export { type HeapStats } from './wasm/memory.js';
export { fetchRobotsTxt, type FetchRobotsOptions, type RobotsFetchResult, type RobotsStatus } from './fetch/fetch.js';
export { RobotsCache, type RobotsCacheOptions, type RobotsCacheRecord, type RobotsCacheSnapshot } from './fetch/cache.js';
export { MemoryStore, type RobotsStore } from './fetch/store.js';
export { type SlotEnd, type SlotEndReply, type SlotReply, type SlotRequest } from './pacing/ledger.js';
export {
  Pacer, PacerSlot, PacingSkipError, type AcquireOptions, type PacerCounts, type PacerOptions, type PacerOriginStats, type PacerOutcome, type PacerStats,
  type TooLong,
} from './pacing/pacer.js';
export { parseHttpDate, retryAfterMs } from './fields/retry-after.js';
export { type StoreEvent } from './fetch/fleet.js';
export { parseRobotsTag, type RobotsTagOptions } from './tags/robots-tag.js';
export { parseRobotsMeta, type RobotsMetaOptions } from './tags/meta.js';
export { RobotsRules, type RuleValue } from './tags/rules.js';
export { urlControls, type HeadersInput, type ResponseInput, type UrlControls, type UrlControlsOptions } from './tags/controls.js';
export { lintRobotsTxt, type Diagnostic, type Severity } from './robots/lint.js';
export { CONTENT_SIGNAL_KEYS, MAX_UNKNOWN_SIGNALS, type ContentSignalKey } from './usage-rules.js';
export {
  combineUsage, MAX_UNKNOWN_LABELS, USAGE_CATEGORIES, USAGE_VOCABULARY, type UsageCategory, type UsagePreferences,
} from './fields/usage.js';
