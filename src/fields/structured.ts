// Structured Field values (RFC 9651). parseList reads the Robots-Tag field, tolerant where
// the robots-tag draft asks it to be: a strict parser rejects the whole field on the first
// error; this one returns the members read before it (the member in error and everything
// after it are ignored, as with the truncated member at the parsing limit), and reads
// parameter keys case-insensitively (rule names are). parseDictionary reads a Dictionary
// (Content-Usage, in a header or robots.txt) strictly, as RFC 9651 does: keys are lowercase,
// and any error fails the whole value. Its parsing limit reads a prefix of the value: what
// fails only for want of the characters past the limit is the member the limit cuts.
//
// A hand-written scanner over the field's characters (header values are octets: one char
// each); every loop advances, so the cost is linear in the input.

/** A bare item: what a member or a parameter value can be. */
export type BareItem =
  | { type: 'token'; value: string }
  | { type: 'string'; value: string }
  | { type: 'integer'; value: number }
  | { type: 'decimal'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'bytes'; value: string }
  | { type: 'date'; value: number }
  | { type: 'display'; value: string };

/** One List member: an Item, or an Inner List (its items are of no use to robots rules and are skipped). */
export interface ListMember {
  item: BareItem | undefined;
  params: Map<string, BareItem>;
  /** Offset just past the member (its parameters included). */
  end: number;
  /** Offset just past its item or Inner List, before its parameters. */
  itemEnd: number;
}

/** The members read, and whether the field was valid up to its end. */
export interface ParsedList {
  members: ListMember[];
  valid: boolean;
}

/** A Dictionary member's value: its bare item (undefined for an Inner List) and its parameters. */
export interface DictionaryValue {
  item: BareItem | undefined;
  params: Map<string, BareItem>;
  /** The value as written, parameters left out; `?1` for a bare key, whose value is written nowhere. */
  text: string;
}

/** Base64 that decodes (RFC 9651 4.2.7): '=' only as the padding, which may be left out. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

class Failure {}
const FAIL = new Failure();

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAlpha = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
/** tchar of RFC 9110 5.6.2. */
function isTchar(c: number): boolean {
  return isAlpha(c) || isDigit(c) || (c < 0x7f && "!#$%&'*+-.^_`|~".includes(String.fromCharCode(c)));
}

class Reader {
  pos = 0;
  /** Set when a character at `end` was asked for while the value goes on past it. */
  cut = false;
  /** Where reading stops: the value's length, or the parsing limit when it is shorter. */
  readonly end: number;

  /** `strictKeys`: keys are RFC 9651's (lowercase only) and kept as written; otherwise either case, lowercased. */
  constructor(readonly s: string, readonly strictKeys = false, limit = s.length) {
    this.end = Math.min(s.length, limit);
  }

  code(): number {
    if (this.pos < this.end) return this.s.charCodeAt(this.pos);
    if (this.end < this.s.length) this.cut = true;
    return -1;
  }

  /** Is the character just past the limit one that cannot continue a member? */
  separatorAtEnd(): boolean {
    const c = this.s.charCodeAt(this.end);
    return c === 0x2c || c === 0x20 || c === 0x09;
  }

  skipSp(): void {
    while (this.code() === 0x20) this.pos++;
  }

  skipOws(): void {
    while (this.code() === 0x20 || this.code() === 0x09) this.pos++;
  }

  bareItem(): BareItem {
    const c = this.code();
    if (c === 0x2d || isDigit(c)) return this.number();
    if (c === 0x22) return { type: 'string', value: this.string() };
    if (c === 0x2a || isAlpha(c)) return { type: 'token', value: this.token() };
    if (c === 0x3a) return { type: 'bytes', value: this.bytes() };
    if (c === 0x3f) return this.boolean();
    if (c === 0x40) {
      this.pos++;
      return { type: 'date', value: this.number(false).value as number };
    }
    if (c === 0x25) return { type: 'display', value: this.displayString() };
    throw FAIL;
  }

  /** An Integer or Decimal (RFC 9651 4.2.4); `decimal` false: an Integer only, as a Date holds. */
  number(decimal = true): BareItem {
    let sign = 1;
    if (this.code() === 0x2d) {
      sign = -1;
      this.pos++;
    }
    const start = this.pos;
    if (!isDigit(this.code())) throw FAIL;
    let dot = -1;
    for (let c = this.code(); isDigit(c) || (c === 0x2e && dot < 0 && decimal); c = this.code()) {
      if (c === 0x2e) {
        if (this.pos - start > 12) throw FAIL;
        dot = this.pos;
      }
      this.pos++;
      // Checked on the digit that breaks the length, before the next one is read: the failure
      // then never looks like the limit's cut.
      if (dot < 0 ? this.pos - start > 15 : this.pos - dot - 1 > 3) throw FAIL;
    }
    if (dot === this.pos - 1) throw FAIL;
    const value = sign * Number(this.s.slice(start, this.pos));
    return dot < 0 ? { type: 'integer', value } : { type: 'decimal', value };
  }

  string(): string {
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.code();
      if (c < 0) throw FAIL;
      this.pos++;
      if (c === 0x5c) {
        const next = this.code();
        if (next !== 0x22 && next !== 0x5c) throw FAIL;
        out += String.fromCharCode(next);
        this.pos++;
      } else if (c === 0x22) {
        return out;
      } else if (c < 0x20 || c > 0x7e) {
        throw FAIL;
      } else {
        out += String.fromCharCode(c);
      }
    }
  }

  token(): string {
    const start = this.pos;
    this.pos++;
    while (isTchar(this.code()) || this.code() === 0x3a || this.code() === 0x2f) this.pos++;
    return this.s.slice(start, this.pos);
  }

  bytes(): string {
    this.pos++;
    const start = this.pos;
    while (this.code() !== 0x3a) {
      const c = this.code();
      if (c < 0 || !(isAlpha(c) || isDigit(c) || c === 0x2b || c === 0x2f || c === 0x3d)) throw FAIL;
      this.pos++;
    }
    this.pos++;
    const content = this.s.slice(start, this.pos - 1);
    if (!BASE64.test(content)) throw FAIL;
    return content;
  }

  boolean(): BareItem {
    this.pos++;
    const c = this.code();
    if (c !== 0x30 && c !== 0x31) throw FAIL;
    this.pos++;
    return { type: 'boolean', value: c === 0x31 };
  }

  displayString(): string {
    this.pos++;
    if (this.code() !== 0x22) throw FAIL;
    this.pos++;
    const bytes: number[] = [];
    for (;;) {
      const c = this.code();
      if (c < 0x20 || c > 0x7e) throw FAIL;
      this.pos++;
      if (c === 0x22) break;
      if (c === 0x25) {
        bytes.push(this.hexDigit() * 16 + this.hexDigit());
      } else {
        bytes.push(c);
      }
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
    } catch {
      throw FAIL;
    }
  }

  /** One lowercase hex digit, read through code() so that the parsing limit holds. */
  hexDigit(): number {
    const c = this.code();
    if (!isDigit(c) && !(c >= 0x61 && c <= 0x66)) throw FAIL;
    this.pos++;
    return isDigit(c) ? c - 0x30 : c - 0x57;
  }

  key(): string {
    const letter = this.strictKeys ? isLower : isAlpha;
    const c = this.code();
    if (!(letter(c) || c === 0x2a)) throw FAIL;
    const start = this.pos;
    this.pos++;
    for (;;) {
      const d = this.code();
      if (letter(d) || isDigit(d) || d === 0x5f || d === 0x2d || d === 0x2e || d === 0x2a) this.pos++;
      else break;
    }
    const key = this.s.slice(start, this.pos);
    return this.strictKeys ? key : key.toLowerCase();
  }

  params(): Map<string, BareItem> {
    const params = new Map<string, BareItem>();
    while (this.code() === 0x3b) {
      this.pos++;
      this.skipSp();
      const key = this.key();
      let value: BareItem = { type: 'boolean', value: true };
      if (this.code() === 0x3d) {
        this.pos++;
        value = this.bareItem();
      }
      // A later parameter with the same key overrides the value, keeping the place (RFC 9651 4.2.3.2).
      params.set(key, value);
    }
    return params;
  }

  /** A Dictionary member: its key and value (a bare key is the Boolean true with parameters). */
  dictionaryMember(): [string, DictionaryValue] {
    const key = this.key();
    if (this.code() !== 0x3d) return [key, { item: { type: 'boolean', value: true }, params: this.params(), text: '?1' }];
    this.pos++;
    const start = this.pos;
    const { item, params, itemEnd } = this.member();
    return [key, { item, params, text: this.s.slice(start, itemEnd) }];
  }

  member(): ListMember {
    let item: BareItem | undefined;
    if (this.code() === 0x28) {
      this.pos++;
      for (;;) {
        this.skipSp();
        if (this.code() === 0x29) {
          this.pos++;
          break;
        }
        this.bareItem();
        this.params();
        const c = this.code();
        if (c !== 0x20 && c !== 0x29) throw FAIL;
      }
    } else {
      item = this.bareItem();
    }
    const itemEnd = this.pos;
    const params = this.params();
    return { item, params, end: this.pos, itemEnd };
  }
}

/** The members of a List field value, up to the first error. */
export function parseList(value: string): ParsedList {
  const r = new Reader(value);
  const members: ListMember[] = [];
  r.skipSp();
  if (r.code() < 0) return { members, valid: true };
  try {
    for (;;) {
      members.push(r.member());
      r.skipOws();
      if (r.code() < 0) return { members, valid: true };
      if (r.code() !== 0x2c) throw FAIL;
      r.pos++;
      r.skipOws();
      if (r.code() < 0) throw FAIL; // a trailing comma
    }
  } catch (error) {
    if (error !== FAIL) throw error;
    return { members, valid: false };
  }
}

/**
 * The members of a Dictionary field value (RFC 9651 4.2.2), or undefined when the value does
 * not parse: strict, as RFC 9651 is (an uppercase key, a bad item, a trailing comma or any
 * other error fails the whole value). A repeated key's last value applies.
 *
 * At most `limit` characters are read (a field's parsing limit). Members that end before it
 * count, as does one ending right at it when a separator follows; the member the limit cuts
 * and everything after it are dropped. An error before the limit still fails the whole value.
 */
export function parseDictionary(value: string, limit = value.length): Map<string, DictionaryValue> | undefined {
  const r = new Reader(value, true, limit);
  const members = new Map<string, DictionaryValue>();
  r.skipSp();
  if (r.code() < 0) return members;
  try {
    for (;;) {
      const [key, member] = r.dictionaryMember();
      // Its last character was read right at the limit: whole only if nothing of it follows.
      if (r.cut && !r.separatorAtEnd()) return members;
      // A repeated key takes the last value (RFC 9651 4.2.2).
      members.set(key, member);
      r.skipOws();
      if (r.code() < 0) return members;
      if (r.code() !== 0x2c) throw FAIL;
      r.pos++;
      r.skipOws();
      if (r.code() < 0) throw FAIL; // a trailing comma, or a member the limit cuts
    }
  } catch (error) {
    if (error !== FAIL) throw error;
    // Wanting only the characters past the limit is the limit's cut, not an error.
    return r.cut ? members : undefined;
  }
}
