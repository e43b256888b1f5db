// Robots meta tags (draft-illyes-repext-03 3.1.2): <meta name="robots" content="noindex"> for
// everyone, <meta name="examplebot" content="nosnippet"> for one product token.
//
// A byte scanner that follows the HTML tokenizer as far as finding those tags needs: comments
// (`<!-- ... -->`), doctype and other `<!`/`<?` constructs, end tags, start tags with
// attributes in any order and case, quoted with " or ' or not at all, and the elements whose
// content is text, not tags (script, style, title, textarea, and the rarer xmp, iframe,
// noembed, noframes): a <meta> in any of these is no tag. Only elements in the head count,
// so the scan stops at </head>, at <body> or at the byte limit; a tag the limit cuts is
// ignored. No DOM, no regular expressions: every step moves forward, the cost is linear.

import { integerOption } from '../args.js';
import { readLegacy } from './legacy.js';
import { agentKey, robotsRules, type RobotsRules, type RuleMap } from './rules.js';

export interface RobotsMetaOptions {
  /** Bytes of the document read; default 1,048,576. */
  maxBytes?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isAlpha = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);

/** Decodes character references: numeric ones and amp, lt, gt, quot, apos, nbsp. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  let from = 0;
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
    const semi = text.indexOf(';', i);
    if (semi < 0 || semi - i > 10) continue;
    const body = text.slice(i + 1, semi);
    let ch: string | undefined;
    if (body.startsWith('#x') || body.startsWith('#X')) ch = codePoint(parseInt(body.slice(2), 16), /^[0-9a-f]+$/i.test(body.slice(2)));
    else if (body.startsWith('#')) ch = codePoint(Number(body.slice(1)), /^[0-9]+$/.test(body.slice(1)));
    else ch = Object.hasOwn(NAMED, body) ? NAMED[body] : undefined;
    if (ch === undefined) continue;
    out += text.slice(from, i) + ch;
    from = semi + 1;
    i = semi;
  }
  return out + text.slice(from);
}

function codePoint(n: number, valid: boolean): string | undefined {
  if (!valid) return undefined;
  return n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) ? '\ufffd' : String.fromCodePoint(n);
}

class Scanner {
  pos = 0;
  constructor(readonly b: Uint8Array, readonly n: number) {}

  /** Index of the first `seq` (ASCII, matched case-insensitively) at or after `from`, or -1. */
  find(seq: string, from: number): number {
    const first = seq.charCodeAt(0);
    for (let i = from; i + seq.length <= this.n; i++) {
      if (lower(this.b[i]) !== first) continue;
      let k = 1;
      while (k < seq.length && lower(this.b[i + k]) === seq.charCodeAt(k)) k++;
      if (k === seq.length) return i;
    }
    return -1;
  }

  /** Skips past the next '>' (false when there is none before the limit). */
  skipPastGt(from: number): boolean {
    const gt = this.b.indexOf(0x3e, from);
    if (gt < 0 || gt >= this.n) return false;
    this.pos = gt + 1;
    return true;
  }

  name(from: number): [string, number] {
    let i = from;
    let name = '';
    while (i < this.n && !isSpace(this.b[i]) && this.b[i] !== 0x2f && this.b[i] !== 0x3e) name += String.fromCharCode(lower(this.b[i++]));
    return [name, i];
  }

  /** Reads the attributes of a start tag from `pos` through its '>'; undefined when the limit cuts the tag. */
  attributes(): Map<string, string> | undefined {
    const attrs = new Map<string, string>();
    const b = this.b;
    let i = this.pos;
    for (;;) {
      while (i < this.n && (isSpace(b[i]) || b[i] === 0x2f)) i++;
      if (i >= this.n) return undefined;
      if (b[i] === 0x3e) {
        this.pos = i + 1;
        return attrs;
      }
      const start = i;
      i++; // the first character may be '=' (then it is part of the name)
      while (i < this.n && !isSpace(b[i]) && b[i] !== 0x2f && b[i] !== 0x3e && b[i] !== 0x3d) i++;
      const name = decoder.decode(b.subarray(start, i)).toLowerCase();
      while (i < this.n && isSpace(b[i])) i++;
      let value = '';
      if (i < this.n && b[i] === 0x3d) {
        i++;
        while (i < this.n && isSpace(b[i])) i++;
        if (i >= this.n) return undefined;
        if (b[i] === 0x22 || b[i] === 0x27) {
          const close = b.indexOf(b[i], i + 1);
          if (close < 0 || close >= this.n) return undefined;
          value = decoder.decode(b.subarray(i + 1, close));
          i = close + 1;
        } else {
          const from = i;
          while (i < this.n && !isSpace(b[i]) && b[i] !== 0x3e) i++;
          value = decoder.decode(b.subarray(from, i));
        }
      }
      if (!attrs.has(name)) attrs.set(name, decodeEntities(value));
    }
  }
}

/**
 * Rules of the robots meta tags in an HTML document's head (`robots` names everyone, any
 * other name one product token). Never throws on content: what cannot be read is ignored.
 */
export function parseRobotsMeta(html: string | Uint8Array, options: RobotsMetaOptions = {}): RobotsRules {
  const maxBytes = integerOption(options.maxBytes, 'maxBytes', 1 << 20, 0);
  let bytes: Uint8Array;
  if (typeof html === 'string') bytes = encoder.encode(html.length > maxBytes ? html.slice(0, maxBytes) : html);
  else if (html instanceof Uint8Array) bytes = html;
  else throw new TypeError('robots-wasm: html must be a string or a Uint8Array');
  const s = new Scanner(bytes, Math.min(bytes.length, maxBytes));
  const byAgent = new Map<string, RuleMap>();
  const b = bytes;
  while (s.pos < s.n) {
    const lt = b.indexOf(0x3c, s.pos);
    if (lt < 0 || lt >= s.n) break;
    const c = lt + 1 < s.n ? b[lt + 1] : -1;
    if (c === 0x21) {
      if (b[lt + 2] === 0x2d && b[lt + 3] === 0x2d && lt + 3 < s.n) {
        // "<!-->" and "<!--->" are whole (empty) comments.
        if (b[lt + 4] === 0x3e) s.pos = lt + 5;
        else if (b[lt + 4] === 0x2d && b[lt + 5] === 0x3e) s.pos = lt + 6;
        else {
          const end = s.find('-->', lt + 4);
          if (end < 0) break;
          s.pos = end + 3;
        }
      } else if (!s.skipPastGt(lt + 2)) break;
    } else if (c === 0x3f) {
      if (!s.skipPastGt(lt + 2)) break;
    } else if (c === 0x2f) {
      if (lt + 2 < s.n && isAlpha(b[lt + 2])) {
        const [name] = s.name(lt + 2);
        if (name === 'head') break;
      }
      if (!s.skipPastGt(lt + 2)) break;
    } else if (c >= 0 && isAlpha(c)) {
      const [name, after] = s.name(lt + 1);
      s.pos = after;
      const attrs = s.attributes();
      if (attrs === undefined || name === 'body') break;
      if (name === 'meta') {
        const who = attrs.get('name')?.trim().toLowerCase();
        const content = attrs.get('content');
        if (who !== undefined && content !== undefined) {
          // `robots` names everyone; `*` names no one here (it is the header's global token).
          const key = who === 'robots' ? '*' : who === '*' ? '' : agentKey(who);
          if (key !== '') readLegacy(content, byAgent, key, false);
        }
      } else if (RAW_TEXT.has(name)) {
        // Text up to the matching end tag: "</script" followed by whitespace, '/' or '>'.
        let end = s.find(`</${name}`, s.pos);
        while (end >= 0) {
          const next = end + name.length + 2 < s.n ? b[end + name.length + 2] : -1;
          if (next === -1 || isSpace(next) || next === 0x2f || next === 0x3e) break;
          end = s.find(`</${name}`, end + 1);
        }
        if (end < 0) break;
        s.pos = end;
      }
    } else {
      s.pos = lt + 1;
    }
  }
  return robotsRules(byAgent);
}
