// Matcher: batch paths, table images and lifetime.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Matcher, RobotsTxt } from '../src/index.js';
import { crc32c, filterOf, HEADER, imageChecksum, readTable, recordWord, reseal } from './support/table.js';

const encoder = new TextEncoder();
const body = 'user-agent: *\ndisallow: /private\nallow: /private/ok\ndisallow: /*.pdf$\ndisallow: /é\n';

function expected(robots: RobotsTxt, urls: string[]): Uint8Array {
  return Uint8Array.from(urls, (url) => (robots.isAllowed(url, 'Bot') ? 1 : 0));
}

describe.each(['rfc', 'google'] as const)('batch verdicts agree with isAllowed, mode %s', (mode) => {
  const robots = RobotsTxt.parse(body, { mode });
  const matcher = robots.matcher('Bot');
  const urls = Array.from({ length: 20_000 }, (_, i) =>
    [`/private/${i}`, `/private/ok/${i}`, `/doc/${i}.pdf`, `/doc/${i}.pdf?x`, `https://h${i}.example/é${i}`, `/%C3%A9/${i}`, `/public/${i}#/private`][i % 7],
  );

  it('checkMany over more URLs than one batch holds', () => {
    const verdicts = matcher.checkMany(urls);
    expect(verdicts).toEqual(expected(robots, urls));
    expect(verdicts.filter((v) => v === 0).length).toBeGreaterThan(5000);
  });

  it('checkMany with a URL longer than a whole batch buffer', () => {
    const huge = `/private/${'x'.repeat(400_000)}`;
    const list = ['/a', huge, '/private', `/${'y'.repeat(300_000)}.pdf`, '/b'];
    expect(Array.from(matcher.checkMany(list))).toEqual([1, 0, 0, 0, 1]);
  });

  it('checkMany of nothing', () => {
    expect(matcher.checkMany([])).toEqual(new Uint8Array(0));
  });

  it('checkMany reads an array with its own join as the URLs it holds', () => {
    const list = ['/private/1', '/public', '/doc/a.pdf'];
    Object.defineProperty(list, 'join', { value: () => '/public/public/public' });
    expect(Array.from(matcher.checkMany(list))).toEqual([0, 1, 0]);
  });

  it('checkMany refuses an array whose getters answer longer URLs on a second read', () => {
    for (const size of [3, 5000]) {
      const list = Array.from({ length: size }, () => '/public');
      let reads = 0;
      Object.defineProperty(list, 1, { get: () => (reads++ === 0 ? '/public' : `/public/${'x'.repeat(70_000)}`) });
      expect(() => matcher.checkMany(list)).toThrow(/changed while it was read/);
    }
  });

  it('checkLines: one verdict per line, LF or CRLF, a last line without LF counts', () => {
    expect(Array.from(matcher.checkLines(encoder.encode('/private\r\n/public\n/x.pdf\n\n/private/ok')))).toEqual([0, 1, 0, 1, 1]);
    expect(Array.from(matcher.checkLines(encoder.encode('/private\n')))).toEqual([0]);
    expect(matcher.checkLines(new Uint8Array(0))).toEqual(new Uint8Array(0));
  });

  it('checkLines over a buffer spanning many chunks agrees with isAllowed', () => {
    const many = [...urls, ...urls, ...urls];
    const text = many.join('\n');
    // Several 256 KiB chunks, cut at line ends.
    expect(encoder.encode(text).length).toBeGreaterThan(1_000_000);
    expect(matcher.checkLines(encoder.encode(text))).toEqual(expected(robots, many));
  });

  it('checkLines finds where each path stops at any offset of the buffer and of the path', () => {
    // The path scan of a buffer of lines reads a bitmap of the whole buffer 57-64 positions at
    // a time: put the byte that stops it ('#', '%', '*', CR, LF, non-ASCII) at every offset
    // up to past two windows, after lines of every length, so each lands at every bit offset.
    const urls: string[] = [];
    for (let pad = 0; pad < 8; pad++) {
      for (let at = 0; at < 140; at++) {
        const stop = ['#/private', '%2Fx', '*', 'é', '.pdf', ''][(at + pad) % 6];
        urls.push(`${'https://h.example'.slice(0, 9 + pad)}/${'private/'.slice(0, (at * 7) % 9)}${'a'.repeat(at)}${stop}`);
      }
    }
    const lines = urls.map((url, i) => url + (i % 3 === 0 ? '\r\n' : '\n')).join('');
    const verdicts = matcher.checkLines(encoder.encode(lines));
    expect(verdicts).toEqual(expected(robots, urls));
    expect(verdicts.filter((v) => v === 0).length).toBeGreaterThan(100);
    expect(verdicts.filter((v) => v === 1).length).toBeGreaterThan(100);
  });

  it('checkLines with one line longer than a chunk', () => {
    const huge = `/private/${'z'.repeat(700_000)}`;
    expect(Array.from(matcher.checkLines(encoder.encode(`/a\n${huge}\n/b.pdf`)))).toEqual([1, 0, 0]);
  });
});

describe('table images', () => {
  const robots = RobotsTxt.parse(body);
  const matcher = robots.matcher('Bot');

  it('toBytes/fromBytes round-trips to a matcher with the same verdicts and rules', () => {
    const image = matcher.toBytes();
    expect(image.length).toBe(matcher.byteLength);
    const copy = Matcher.fromBytes(image);
    image.fill(0); // the loaded table is a copy
    for (const url of ['/private', '/private/ok', '/a.pdf', '/é', '/%C3%A9', '/x']) {
      expect(copy.explain(url)).toEqual(matcher.explain(url));
    }
    expect(copy.explain('/private/x')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/private', line: 2 } });
    expect(copy.explain('/%c3%a9x')).toEqual({ allowed: false, rule: { kind: 'disallow', pattern: '/%C3%A9', line: 5 } });
    expect(copy.mode).toBe('rfc');
    expect(copy.ruleCount).toBe(4);
    copy.dispose();
  });

  it('fromBytes rejects bytes that are not a table', () => {
    expect(() => Matcher.fromBytes(new Uint8Array(64))).toThrow(/bad magic/);
    const older = matcher.toBytes();
    older[3] = 0x37; // "RWT7": the format before the checksum and before every literal segment of a wildcard rule was a key
    expect(() => Matcher.fromBytes(older)).toThrow(/format version 7, this version reads 8: compile it again/);
    expect(() => Matcher.fromBytes(matcher.toBytes().subarray(0, HEADER.size))).toThrow(/truncated/);
    expect(() => Matcher.fromBytes('x' as never)).toThrow(TypeError);
  });

  /** The root's first child entry in `image` (a dense area's first entry always names a child), and a reader. */
  const firstChild = (image: Uint8Array) => {
    const table = readTable(image);
    const root = table.node(table.rootAt);
    expect(root.children.length).toBeGreaterThan(0);
    return { table, root, first: root.children[0] };
  };

  it('fromBytes rejects a trie whose child points back at its parent (a walk would never end)', () => {
    const image = matcher.toBytes();
    const { table, root, first } = firstChild(image);
    table.setChild(first, root.at);
    expect(() => Matcher.fromBytes(image)).toThrow(/damaged \(checksum\)/);
    expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(trie nodes\)/);
  });

  it('fromBytes rejects a child entry whose label length is not its child\'s (the walk compares that many bytes)', () => {
    const image = matcher.toBytes();
    const { table, first } = firstChild(image);
    expect(Matcher.fromBytes(image).isAllowed('/private')).toBe(false);
    expect(first.labelLength).toBe(table.node(first.child).labelLength);
    table.setEntryLabelLength(first, first.labelLength + 1);
    expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(trie nodes\)/);
  });

  it('fromBytes rejects a trie child with an empty label (the walk compares 1 to 16 label bytes at once)', () => {
    const image = matcher.toBytes();
    const { table, first } = firstChild(image);
    const child = table.node(first.child);
    expect(child.labelLength).toBeGreaterThan(0);
    expect(Matcher.fromBytes(image).isAllowed('/private')).toBe(false);
    table.setLabel(child, 0);
    expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(trie nodes\)/);
  });

  /** A table of multi-segment wildcard rules (segment records, lazy keys), and with `keys` keys, automata. */
  const segmented = (keys: number) => RobotsTxt.parse(`user-agent: *\n${Array.from({ length: keys }, (_, i) => `disallow: /*a!~${i}*/*x${i % 7}\n`).join('')}`).matcher('Bot');
  /** The filter of an image, and a reader that writes to the image. */
  const filterView = (image: Uint8Array) => {
    const table = readTable(image);
    const filter = table.filter()!;
    return { table, filter, keyCount: filter.keys.length };
  };
  /** The first keyed rule of `image` with a segment record. */
  const firstRecord = (image: Uint8Array) => {
    const { table, filter, keyCount } = filterView(image);
    const rule = filter.rules.find((r) => r.record !== 0);
    if (rule === undefined) throw new Error('no segment record');
    return { table, keyCount, rule };
  };

  it('fromBytes rejects a segment record outside the image, of no segments, or naming no key', () => {
    const matcher = segmented(4);
    expect(matcher.isAllowed('/a!~2/x2')).toBe(false);
    const damage = (change: (at: ReturnType<typeof firstRecord>) => void) => {
      const image = matcher.toBytes();
      change(firstRecord(image));
      expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(key filter\)/);
    };
    damage(({ table, rule }) => table.setU32(rule.wordAt, recordWord(table.image.length - 4)));
    damage(({ table, rule }) => table.setU32(rule.countAt, 0));
    damage(({ table, rule, keyCount }) => table.setU32(rule.keysAt + 4, keyCount));
    const copy = Matcher.fromBytes(matcher.toBytes());
    expect([copy.isAllowed('/a!~2/x2'), copy.isAllowed('/a!~2x2')]).toEqual([false, true]);
  });

  it('fromBytes rejects more lazy keys than one per ASCII byte', () => {
    const matcher = segmented(4);
    const image = matcher.toBytes();
    const { table, filter, keyCount } = filterView(image);
    expect(keyCount - filter.lazy).toBe(1); // '/'
    table.setU32(filter.lazyAt, 0);
    expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(key filter\)/);
  });

  it('fromBytes rejects automata whose failure links point deeper, or whose keys end at nodes of another depth', () => {
    // 600 keys of one gate pair: past its budget the key pass hands over to the automata.
    const matcher = segmented(600);
    // Rules a!~1, a!~10 and a!~100 need x1, x3 and x2 after a '/'.
    const path = `/${'!~'.repeat(2000)}a!~100/x5`;
    expect([matcher.isAllowed(path), matcher.isAllowed(`${path}x2`)]).toEqual([true, false]);
    const automaton = (image: Uint8Array) => {
      const { table, filter } = filterView(image);
      expect(filter.automataAt).toBeGreaterThan(0);
      return { table, ...table.automaton(filter.automataAt) };
    };
    const image = matcher.toBytes();
    const { table, nodes, failAt } = automaton(image);
    // The last node is a deepest one: pointing the failure link of node 1 (depth 1) at it.
    table.setU32(failAt + 4, nodes - 1);
    expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(key filter\)/);
    const other = matcher.toBytes();
    const { table: otherTable, keyNodeAt } = automaton(other);
    // Key 0 ending at the root, as deep as no key is long.
    otherTable.setU32(keyNodeAt, 0);
    expect(() => Matcher.fromBytes(reseal(other))).toThrow(/damaged \(key filter\)/);
    const copy = Matcher.fromBytes(matcher.toBytes());
    expect([copy.isAllowed(path), copy.isAllowed(`${path}x2`)]).toEqual([true, false]);
    copy.dispose();
  });

  it('a root with only a "/" child is that child, and fromBytes accepts no other root label', () => {
    const rootLabel = (image: Uint8Array) => {
      const table = readTable(image);
      const root = table.node(table.rootAt);
      return { table, root, length: root.labelLength };
    };
    // Every literal starts with '/': the walk starts after the root's label "/".
    expect(rootLabel(matcher.toBytes()).length).toBe(1);
    // A literal that does not start with '/' (it matches no path) keeps an empty root label.
    for (const mode of ['rfc', 'google'] as const) {
      const other = RobotsTxt.parse('user-agent: *\ndisallow: x\n', { mode }).matcher('Bot');
      expect(rootLabel(other.toBytes()).length).toBe(0);
      expect([other.isAllowed('/x'), other.isAllowed('/y')]).toEqual([true, true]);
      expect(Array.from(other.checkLines(encoder.encode('https://a.example/x\nhttps://a.example/y')))).toEqual([1, 1]);
    }
    // The empty literal's one wildcard rule ("*.pdf"), tried from the path's start, keeps it.
    const rooted = RobotsTxt.parse('user-agent: *\ndisallow: /private\ndisallow: *.pdf\n').matcher('Bot');
    expect(rootLabel(rooted.toBytes()).length).toBe(0);
    expect([rooted.isAllowed('/private/a'), rooted.isAllowed('/a.pdf'), rooted.isAllowed('/a')]).toEqual([false, false, true]);
    // Its prefix rule ("*") and keyed rules move to the "/" root; "*/x" still finds its key
    // "/x" at the path's start, and "$" (an end rule that matches no path) goes.
    const merged = RobotsTxt.parse('user-agent: *\ndisallow: /\nallow: *\ndisallow: */x\ndisallow: *.pdf\ndisallow: $\n').matcher('Bot');
    expect(rootLabel(merged.toBytes()).length).toBe(1);
    const paths = ['/x', '/a/x', '/a.pdf', '/a', '/'];
    expect(paths.map((path) => merged.isAllowed(path))).toEqual([false, false, false, true, true]);
    expect(Array.from(merged.checkLines(encoder.encode(paths.map((path) => `https://a.example${path}`).join('\n'))))).toEqual([0, 0, 0, 1, 1]);

    const longer = matcher.toBytes();
    const { table, root } = rootLabel(longer);
    table.setLabel(root, root.labelLength + 1);
    expect(() => Matcher.fromBytes(reseal(longer))).toThrow(/damaged \(trie nodes\)/);
    // The label "/" moved one byte on, to a pattern's second byte.
    const moved = matcher.toBytes();
    const at = rootLabel(moved);
    at.table.setLabel(at.root, at.root.labelLength, at.root.label + 1);
    expect(() => Matcher.fromBytes(reseal(moved))).toThrow(/damaged \(trie nodes\)/);
  });

  it('fromBytes rejects a wildcard rule shorter than the depth of its trie node', () => {
    // Rule 0 (the longest) is the literal one; rule 1 the wildcard one.
    const image = RobotsTxt.parse('user-agent: *\ndisallow: /abcdefghijklmnopqrstuvwxyz\ndisallow: /private/*.pdf$\n').matcher('Bot').toBytes();
    const table = readTable(image);
    // Rule 0's pattern grows to end one byte before rule 1's, which becomes its own last byte,
    // "$", still hanging off the node "/private/" (depth 9), where the matcher would start on
    // its tail; every offset stays inside the image.
    table.setU32(table.patternEndAt(0), table.patternEnd(1) - 1);
    expect(() => Matcher.fromBytes(reseal(image))).toThrow(/damaged \(trie nodes\)/);
  });

  it('fromBytes refuses damaged images whose checksum was recomputed, and what it accepts never reads outside the image', () => {
    // Wildcard rules (a key filter), a node with more than 16 children (a bitmap index), and
    // end-anchored, allow and percent-encoded rules.
    const wide = Array.from({ length: 20 }, (_, i) => `disallow: /${String.fromCharCode(97 + i)}x`).join('\n');
    const tables = [
      // "/*~" has a one-byte key: the filter carries its optional one-byte tables.
      RobotsTxt.parse(`user-agent: *\n${wide}\ndisallow: /*q=*\ndisallow: /*.pdf$\ndisallow: /*/tmp/\ndisallow: /*~\nallow: /ax/ok$\n`).matcher('Bot'),
      matcher,
    ];
    const urls = ['/ax', '/ax/ok', '/bx/q=1', '/c/d.pdf', '/e/tmp/x', '/%C3%A9', '/', '/zz?q=2', 'https://h.example/tx/tmp/', '/f~g'];
    const lines = encoder.encode(urls.join('\n'));
    let state = 7;
    const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
    let rejected = 0;
    let accepted = 0;
    for (let trial = 0; trial < 4000; trial++) {
      const image = tables[trial % tables.length].toBytes();
      // Magic and length stay intact: those are refused before the structure is looked at.
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) image[8 + Math.floor(random() * (image.length - 8))] = Math.floor(random() * 256);
      // The checksum is recomputed (as a crafted image would carry it), so the structure is checked.
      reseal(image);
      let copy: Matcher;
      try {
        copy = Matcher.fromBytes(image);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(/damaged \((header|rules|trie nodes|key filter)\)/);
        rejected++;
        continue;
      }
      // Any verdicts will do (the rules were changed); a WebAssembly trap or a hang will not.
      expect(copy.checkMany(urls)).toHaveLength(urls.length);
      expect(copy.checkLines(lines)).toHaveLength(urls.length);
      copy.dispose();
      accepted++;
    }
    expect(rejected).toBeGreaterThan(1000);
    expect(accepted).toBeGreaterThan(100);
    tables[0].dispose();
  });
});

describe('table image integrity', () => {
  // A real file's table (bench/data/PROVENANCE.md): literal rules, and wildcard rules behind a
  // key filter.
  const matcher = RobotsTxt.parse(readFileSync(new URL('../bench/data/www.bcg.com', import.meta.url))).matcher('ExampleBot');
  const image = matcher.toBytes();
  const table = readTable(image);
  /** What fromBytes says of `bytes`: 'loaded', or the message of its TypeError. */
  const load = (bytes: Uint8Array): string => {
    try {
      Matcher.fromBytes(bytes).dispose();
      return 'loaded';
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      return error.message;
    }
  };

  it('the checksum is the CRC-32C of the image with its field zeroed; a loaded image exports the same bytes', () => {
    expect(crc32c(encoder.encode('123456789'))).toBe(0xe3069283); // CRC-32C's check value
    expect(image.length).toBe(892);
    expect(table.checksum).toBe(imageChecksum(image));
    expect(table.checksum).not.toBe(0);
    const copy = Matcher.fromBytes(image);
    expect(copy.toBytes()).toEqual(image);
    expect(copy.checkMany(['/', '/search?q=1', '/x.pdf'])).toEqual(matcher.checkMany(['/', '/search?q=1', '/x.pdf']));
    copy.dispose();
  });

  it('every single-bit flip of a real table image is a TypeError, found by the checksum past the magic and length', () => {
    const outcomes = new Map<string, number>();
    for (let bit = 0; bit < image.length * 8; bit++) {
      const damaged = image.slice();
      damaged[bit >>> 3] ^= 1 << (bit & 7);
      const byte = bit >>> 3;
      const outcome = load(damaged);
      // Past the magic and the length, the checksum refuses the image before the structure is read.
      const part = byte < HEADER.totalLength ? 'magic' : byte < HEADER.totalLength + 4 ? 'length' : byte < HEADER.checksum || byte >= HEADER.checksum + 4 ? 'body' : 'checksum field';
      const key = `${part}: ${outcome.replace(/version ., this/, 'version ?, this')}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(outcomes)).toEqual({
      'magic: robots-wasm: not a compiled robots-wasm table (bad magic)': 24,
      'magic: robots-wasm: table image of format version ?, this version reads 8: compile it again from its robots.txt': 8,
      'length: robots-wasm: compiled table is truncated or has trailing bytes': 32,
      'checksum field: robots-wasm: compiled table is damaged (checksum)': 32,
      'body: robots-wasm: compiled table is damaged (checksum)': (image.length - 12) * 8,
    });
  });

  it('every truncation and trailing bytes are TypeErrors, also with the length field made to match', () => {
    const loads: string[] = [];
    for (let length = 0; length < image.length; length++) {
      loads.push(load(image.slice(0, length)));
      if (length >= HEADER.checksum + 4) {
        const patched = image.slice(0, length);
        readTable(patched).setU32(HEADER.totalLength, length);
        loads.push(load(patched));
      }
    }
    for (const extra of [1, 4, 100]) {
      const longer = new Uint8Array(image.length + extra);
      longer.set(image);
      loads.push(load(longer));
      readTable(longer).setU32(HEADER.totalLength, longer.length);
      loads.push(load(longer));
    }
    expect(loads.filter((outcome) => !/bad magic|truncated or has trailing bytes|damaged \(checksum\)/.test(outcome))).toEqual([]);
    expect(loads.filter((outcome) => /damaged \(checksum\)/.test(outcome))).toHaveLength(image.length - HEADER.checksum - 4 + 3);
  });
});

describe('long patterns', () => {
  it('few rules with long patterns (ordered by a merge sort, not by length slots) keep the precedence', () => {
    const long = `/${'a'.repeat(300)}`;
    for (const mode of ['rfc', 'google'] as const) {
      const tie = RobotsTxt.parse(`user-agent: *\ndisallow: ${long}\nallow: ${long}\n`, { mode }).matcher('Bot');
      expect(tie.isAllowed(`${long}/x`)).toBe(true);
      expect(tie.explain(`${long}/x`)).toEqual({ allowed: true, rule: { kind: 'allow', pattern: long, line: 3 } });
      const longer = RobotsTxt.parse(`user-agent: *\nallow: ${long}\ndisallow: ${long}b\n`, { mode }).matcher('Bot');
      expect(longer.isAllowed(`${long}b`)).toBe(false);
      expect(longer.isAllowed(`${long}c`)).toBe(true);
    }
  });

  it('a literal longer than a trie node label holds (2 MiB) is split over nodes and still matched exactly', () => {
    const literal = `/${'abcdefgh'.repeat(300_000)}`; // 2,400,001 bytes
    const robots = RobotsTxt.parse(`user-agent: *\ndisallow: ${literal}$\nallow: ${literal.slice(0, 100)}\n`, { maxBytes: Infinity });
    const matcher = robots.matcher('Bot');
    expect(matcher.isAllowed(literal)).toBe(false);
    expect(matcher.isAllowed(`${literal}x`)).toBe(true);
    expect(matcher.isAllowed(`${literal.slice(0, -1)}x`)).toBe(true);
    expect(Matcher.fromBytes(matcher.toBytes()).isAllowed(literal)).toBe(false);
    robots.dispose();
  });

  it('a wildcard rule whose literal segment is longer than a filter key (64 KiB) is tried where its literal part ends', () => {
    // Its segment's rarest byte pair, "QZ", lies past 64 KiB: no key can hold it, so the rule
    // is not keyed (at most one rule per 64 KiB of file is so) and the walk tries it.
    const segment = `${'a'.repeat(70_000)}QZ`;
    // Two wildcard rules: the filter is used, for the other one.
    const robots = RobotsTxt.parse(`user-agent: *\ndisallow: /*${segment}\ndisallow: /*.pdf$\n`);
    const matcher = robots.matcher('Bot');
    expect(filterOf(matcher.toBytes())?.keys).toEqual(['.pdf']);
    expect(matcher.isAllowed(`/p/${segment}/b`)).toBe(false);
    expect(matcher.isAllowed(`/p/${segment.slice(0, -1)}/b`)).toBe(true); // the key occurs, the rule does not match
    expect(matcher.isAllowed(`/p/${segment.slice(1)}`)).toBe(true);
    expect(matcher.isAllowed('/a/b.pdf')).toBe(false);
    expect(Matcher.fromBytes(matcher.toBytes()).isAllowed(`/${segment}`)).toBe(false);
    robots.dispose();
  });
});

describe('lifetime', () => {
  it('a disposed matcher throws on use, and dispose twice is harmless', () => {
    const matcher = RobotsTxt.parse(body).matcher('Bot');
    matcher.dispose();
    matcher.dispose();
    expect(matcher.disposed).toBe(true);
    expect(() => matcher.isAllowed('/x')).toThrow(/disposed/);
    expect(() => matcher.checkMany(['/x'])).toThrow(/disposed/);
    expect(() => matcher.toBytes()).toThrow(/disposed/);
  });

  it('a file with no rules compiles to a header-only table that allows everything', () => {
    const matcher = RobotsTxt.parse('').matcher('Bot');
    expect(matcher.ruleCount).toBe(0);
    expect(matcher.byteLength).toBe(HEADER.size);
    const copy = Matcher.fromBytes(matcher.toBytes());
    expect(Array.from(copy.checkLines(encoder.encode('/\n/x')))).toEqual([1, 1]);
    copy.dispose();
    expect(Array.from(matcher.checkMany(['/', '/x']))).toEqual([1, 1]);
  });

  it('a matcher without rules answers as its table does, without the kernel: types and disposal still checked', () => {
    // Rules for another agent only: Bot's matcher has none, and answers without a table.
    const robots = RobotsTxt.parse('User-agent: Other\nDisallow: /\n');
    const matcher = robots.matcher('Bot');
    const urls = ['/', '/robots.txt', 'https://h.example/a/../b', '\\x\\..', '%zz', '', 'http://[::1', `/${'a'.repeat(200_000)}`, 'https://ex.com:99999/é?q#f'];
    const image = Matcher.fromBytes(robots.matcher('Bot').toBytes());
    expect(Array.from(matcher.checkMany(urls))).toEqual(Array.from(image.checkMany(urls)));
    expect(urls.map((url) => matcher.isAllowed(url))).toEqual(urls.map((url) => image.isAllowed(url)));
    expect(urls.every((url) => matcher.isAllowed(url))).toBe(true);
    expect(() => matcher.checkMany(['/', 7 as unknown as string])).toThrow(TypeError);
    expect(() => matcher.isAllowed(null as unknown as string)).toThrow(TypeError);
    matcher.dispose();
    expect(() => matcher.checkMany(['/'])).toThrow(/disposed/);
    expect(() => matcher.isAllowed('/')).toThrow(/disposed/);
    image.dispose();
    robots.dispose();
  });
});
