// Structured Field values (RFC 9651). parseList reads the Robots-Tag field, tolerant where
// the robots-tag draft asks it to be: a strict parser rejects the whole field on the first
// error; this one returns the members read before it (the member in error and everything
// after it are ignored, as with the truncated member at the parsing limit), and reads
// parameter keys case-insensitively (rule names are). parseDictionary reads a Dictionary
// (Content-Usage, in a header or robots.txt) strictly, as RFC 9651 does: keys are lowercase,
// and any error fails the whole value.
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
}

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
  /** `strictKeys`: keys are RFC 9651's (lowercase only) and kept as written; otherwise either case, lowercased. */
  constructor(readonly s: string, readonly strictKeys = false) {}

  code(): number {
    return this.pos < this.s.length ? this.s.charCodeAt(this.pos) : -1;
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
      const n = this.number();
      if (n.type !== 'integer') throw FAIL;
      return { type: 'date', value: n.value };
    }
    if (c === 0x25) return { type: 'display', value: this.displayString() };
    throw FAIL;
  }

  number(): BareItem {
    let sign = 1;
    if (this.code() === 0x2d) {
      sign = -1;
      this.pos++;
    }
    const start = this.pos;
    if (!isDigit(this.code())) throw FAIL;
    let dot = -1;
    while (isDigit(this.code()) || (this.code() === 0x2e && dot < 0)) {
      if (this.code() === 0x2e) {
        if (this.pos - start > 12) throw FAIL;
        dot = this.pos;
      }
      this.pos++;
      if (dot < 0 && this.pos - start > 15) throw FAIL;
      if (dot >= 0 && this.pos - start > 16) throw FAIL;
    }
    const text = this.s.slice(start, this.pos);
    if (text.length === 0 || text.endsWith('.')) throw FAIL;
    if (dot >= 0) {
      if (this.pos - dot - 1 > 3) throw FAIL;
      return { type: 'decimal', value: sign * Number(text) };
    }
    return { type: 'integer', value: sign * Number(text) };
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
    return this.s.slice(start, this.pos - 1);
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
        const hex = this.s.slice(this.pos, this.pos + 2);
        if (!/^[0-9a-f]{2}$/.test(hex)) throw FAIL;
        bytes.push(parseInt(hex, 16));
        this.pos += 2;
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
    const params = this.params();
    return { item, params, end: this.pos };
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
 */
export function parseDictionary(value: string): Map<string, DictionaryValue> | undefined {
  const r = new Reader(value, true);
  const members = new Map<string, DictionaryValue>();
  r.skipSp();
  if (r.code() < 0) return members;
  try {
    for (;;) {
      const key = r.key();
      let member: DictionaryValue;
      if (r.code() === 0x3d) {
        r.pos++;
        const { item, params } = r.member();
        member = { item, params };
      } else {
        member = { item: { type: 'boolean', value: true }, params: r.params() };
      }
      // A repeated key takes the last value (RFC 9651 4.2.2).
      members.set(key, member);
      r.skipOws();
      if (r.code() < 0) return members;
      if (r.code() !== 0x2c) throw FAIL;
      r.pos++;
      r.skipOws();
      if (r.code() < 0) throw FAIL; // a trailing comma
    }
  } catch (error) {
    if (error !== FAIL) throw error;
    return undefined;
  }
}
