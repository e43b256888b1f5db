// Loading the copied fixtures (see test/fixtures/PROVENANCE.md); tests never read ../shared.
import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../fixtures/', import.meta.url);

export interface GoogleCase {
  id: string;
  robots: string;
  agent: string;
  url: string;
  allowed: boolean;
  line: number;
}

export function googleCases(): GoogleCase[] {
  return readFileSync(new URL('conformance/google-cases.jsonl', root), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as GoogleCase);
}

/** A vector of google-other-cases.json; byte fields may come as `<name>_b64` (see field()). */
export interface Vector {
  id: string;
  [field: string]: unknown;
}

export interface ReporterCase extends Vector {
  expect: { valid_directives?: number; unknown_directives?: number; last_line_seen?: number; sitemap?: string; parse_results_size?: number };
  line_results?: { line_num: number; tag_name: string; is_typo: boolean; metadata: Record<string, boolean> }[];
}

export interface OtherCases {
  IsValidUserAgentToObey: (Vector & { input: string; expected: boolean })[];
  GetPathParamsQuery: Vector[];
  MaybeEscapePattern: Vector[];
  RobotsStatsReporter: { cases: ReporterCase[] };
  RobotsParsingReporter: { cases: ReporterCase[] };
}

export function googleOtherCases(): OtherCases {
  return JSON.parse(readFileSync(new URL('conformance/google-other-cases.json', root), 'utf8')) as OtherCases;
}

/** A field given as text, or as base64 bytes under `<field>_b64` when it is not valid UTF-8. */
export function field(record: Record<string, unknown>, name: string): Uint8Array {
  const b64 = record[`${name}_b64`];
  if (typeof b64 === 'string') return new Uint8Array(Buffer.from(b64, 'base64'));
  return new TextEncoder().encode(String(record[name] ?? ''));
}

export function corpusFiles(): { name: string; bytes: Uint8Array }[] {
  const dir = new URL('corpus/', root);
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(name, dir))) }));
}

export function corpusFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`corpus/${name}`, root)));
}

/**
 * A robots.txt body with a group per user-agent value, each disallowing its own path: group k
 * names agents[k] on line 3k + 1 and disallows `/g<k>` on line 3k + 2.
 */
export function groupPerAgent(agents: readonly string[]): string {
  return agents.map((agent, k) => `User-agent: ${agent}\nDisallow: /g${k}\n`).join('\n');
}
