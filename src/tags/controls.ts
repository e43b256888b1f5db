// One answer per response: what may an agent do with what it fetched? The union of every
// source (draft-illyes-repext-03): Robots-Tag and X-Robots-Tag header lines, robots meta tags
// of the served HTML and of the rendered DOM (the post-script DOM never replaces the source),
// `*`/`robots` rules and the agent's own. The answer holds until the response's HTTP
// freshness runs out (3.1.4). Beside it, the AI usage preferences of the Content-Usage header
// (draft-ietf-aipref-attach), which are the same for every agent.

import { integerOption } from '../args.js';
import { explicitFreshnessMs } from '../fetch/freshness.js';
import { readUsage, type UsagePreferences } from '../fields/usage.js';
import { parseRobotsMeta } from './meta.js';
import { MIN_FIELD_BYTES, parseRobotsTag } from './robots-tag.js';
import { unite, type RuleMap, type RuleValue } from './rules.js';

/** A response's headers: a Headers object, or a record whose array values are separate header lines. */
export type HeadersInput = Headers | Record<string, string | readonly string[] | undefined>;

/** What urlControls reads. */
export interface ResponseInput {
  headers?: HeadersInput;
  /** The HTML as served. */
  html?: string | Uint8Array;
  /** The DOM after scripts ran, serialised (its rules add to the served HTML's). */
  renderedHtml?: string | Uint8Array;
}

export interface UrlControlsOptions {
  /** The time unavailable_after and freshness are judged at (ms since the epoch or a Date); default now. */
  now?: number | Date;
  /** Bytes read of each header field (Robots-Tag, X-Robots-Tag, Content-Usage); default and minimum 8,192. */
  maxHeaderBytes?: number;
  /** Bytes read of each HTML document; default 1,048,576. */
  maxHtmlBytes?: number;
}

/** What an agent may do with a response. */
export interface UrlControls {
  /** Do not index: `noindex`, `none`, or an unavailable_after that has passed. */
  noindex: boolean;
  /** No snippet: `nosnippet` or `max-snippet: 0`. */
  nosnippet: boolean;
  /** Do not follow links: `nofollow` or `none`. */
  nofollow: boolean;
  /** No cached copy: `noarchive` (or Bing's `nocache`). */
  noarchive: boolean;
  noimageindex: boolean;
  notranslate: boolean;
  /** Longest snippet in characters (-1: no limit), when set. */
  maxSnippet?: number;
  maxImagePreview?: 'none' | 'standard' | 'large';
  /** Longest video preview in seconds (-1: no limit), when set. */
  maxVideoPreview?: number;
  unavailableAfter?: Date;
  /** Every rule that applies, by lowercase name (unavailable_after in ms since the epoch). */
  rules: ReadonlyMap<string, RuleValue>;
  /** Until when these rules hold, from the response's Cache-Control / Expires / Date, if it says. */
  expiresAt?: number;
  /** The Content-Usage header's AI usage preferences, for any agent; `{}` when it states none. */
  contentUsage: UsagePreferences;
}

/** The lines of header `name` (lowercase): a Headers object gives one joined line. */
function headerLines(headers: HeadersInput | undefined, name: string): string[] {
  if (headers === undefined || headers === null) return [];
  if (headers instanceof Headers) {
    const value = headers.get(name);
    return value === null ? [] : [value];
  }
  if (typeof headers !== 'object') throw new TypeError('robots-wasm: headers must be a Headers object or a record');
  const lines: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (typeof value === 'string') lines.push(value);
    else if (Array.isArray(value)) lines.push(...value.filter((v): v is string => typeof v === 'string'));
  }
  return lines;
}

/**
 * What `agent` may do with a response: the union of its Robots-Tag / X-Robots-Tag headers and
 * the robots meta tags of its HTML (served and rendered), for `*` and for the agent's token.
 * Never throws on content.
 */
export function urlControls(response: ResponseInput, agent: string, options: UrlControlsOptions = {}): UrlControls {
  if (response === null || typeof response !== 'object') throw new TypeError('robots-wasm: urlControls expects { headers, html, renderedHtml }');
  if (typeof agent !== 'string') throw new TypeError('robots-wasm: agent must be a string');
  const now = options.now === undefined ? Date.now() : options.now instanceof Date ? options.now.getTime() : options.now;
  if (typeof now !== 'number' || Number.isNaN(now)) throw new TypeError('robots-wasm: now must be a number or a Date');
  const rules: RuleMap = new Map();
  const { headers } = response;
  const maxBytes = integerOption(options.maxHeaderBytes, 'maxHeaderBytes', MIN_FIELD_BYTES, MIN_FIELD_BYTES);
  const headerOptions = { maxBytes };
  const robotsTag = headerLines(headers, 'robots-tag');
  if (robotsTag.length > 0) unite(rules, parseRobotsTag(robotsTag, { ...headerOptions, field: 'robots-tag' }).rulesFor(agent));
  const xRobotsTag = headerLines(headers, 'x-robots-tag');
  if (xRobotsTag.length > 0) unite(rules, parseRobotsTag(xRobotsTag, { ...headerOptions, field: 'x-robots-tag' }).rulesFor(agent));
  for (const html of [response.html, response.renderedHtml]) {
    if (html !== undefined) unite(rules, parseRobotsMeta(html, { maxBytes: options.maxHtmlBytes }).rulesFor(agent));
  }

  const flag = (name: string) => rules.get(name) !== undefined;
  const number = (name: string) => (typeof rules.get(name) === 'number' ? (rules.get(name) as number) : undefined);
  const unavailableAfter = number('unavailable_after');
  const maxSnippet = number('max-snippet');
  const controls: UrlControls = {
    noindex: flag('noindex') || (unavailableAfter !== undefined && unavailableAfter <= now),
    nosnippet: flag('nosnippet') || maxSnippet === 0,
    nofollow: flag('nofollow'),
    noarchive: flag('noarchive') || flag('nocache'),
    noimageindex: flag('noimageindex'),
    notranslate: flag('notranslate'),
    rules,
    // One Dictionary over the field's lines joined as RFC 9110 5.3 joins them.
    contentUsage: readUsage(headerLines(headers, 'content-usage').join(', '), maxBytes) ?? {},
  };
  if (maxSnippet !== undefined) controls.maxSnippet = maxSnippet;
  const image = rules.get('max-image-preview');
  if (typeof image === 'string') controls.maxImagePreview = image as UrlControls['maxImagePreview'];
  const video = number('max-video-preview');
  if (video !== undefined) controls.maxVideoPreview = video;
  if (unavailableAfter !== undefined) controls.unavailableAfter = new Date(unavailableAfter);
  if (headers !== undefined) {
    const get = (name: string) => {
      const lines = headerLines(headers, name);
      return lines.length === 0 ? null : lines.join(', ');
    };
    const freshness = explicitFreshnessMs({ get }, now);
    if (freshness !== undefined) controls.expiresAt = now + freshness;
  }
  return controls;
}
