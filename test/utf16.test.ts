// checkMany's way into WebAssembly memory: a batch of strings written as UTF-16 and turned into
// UTF-8 by the kernel (assembly/utf16.ts) must give the bytes TextEncoder gives, string by string.
import { describe, expect, it } from 'vitest';
import { RobotsTxt } from '../src/index.js';
import { BATCH_UNITS, BATCH_URLS, batchArea } from '../src/wasm/batch.js';
import { kernel } from '../src/wasm/kernel.js';
import { pick, rng } from './support/random.js';

const encoder = new TextEncoder();

// Every kind of UTF-16 unit: ASCII, 2- and 3-byte code points (below and above 0x8000, where
// a unit reads as negative), pairs, and surrogates alone or in the wrong order.
const PIECES = [
  'a', '/', '%', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '€', '\u7fff', '\u8000', '中', '\ufffd', '\uffff',
  '\u{1F600}', '\u{10000}', '\u{10FFFF}', '\ud800', '\udbff', '\udc00', '\udfff', '\ude00\ud83d',
];

function randomString(next: () => number, maxUnits: number): string {
  // Long ASCII runs too, so that non-ASCII units land at every position of a 32-unit step.
  const units = Math.floor(next() * (maxUnits + 1));
  let text = '';
  while (text.length < units) text += next() < 0.5 ? 'abcdefghijklmnopqrstuvwxyz0123456789'.slice(0, Math.floor(next() * 37)) : pick(next, PIECES);
  return text;
}

/** Each URL's UTF-8 as the packed form of one job: the batch transcoder's output, batch after batch. */
function transcoded(urls: string[]): Uint8Array[] {
  const { bytes, spans } = batchArea().pack(urls, 0, urls.length);
  return urls.map((_, i) => bytes.slice(spans[2 * i], spans[2 * i] + spans[2 * i + 1]));
}

describe('UTF-16 to UTF-8 in the kernel', () => {
  it('writes what TextEncoder writes for every kind of unit at every offset', () => {
    const next = rng(1601);
    const urls = Array.from({ length: 5000 }, () => randomString(next, 70));
    const got = transcoded(urls);
    let nonAscii = 0;
    urls.forEach((url, i) => {
      const want = encoder.encode(url);
      if (want.length !== url.length) nonAscii++;
      expect(got[i], JSON.stringify(url)).toEqual(want);
    });
    expect(nonAscii).toBeGreaterThan(3000);
  });

  it('places each string of an ASCII stream, with no non-ASCII unit or one far into the batch', () => {
    // Spans are written when a non-ASCII unit is met and at the end of the batch.
    const next = rng(1603);
    const ascii = Array.from({ length: 3000 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789/'.slice(0, Math.floor(next() * 38)));
    for (const urls of [ascii, [...ascii.slice(0, 1500), 'é', ...ascii.slice(1500)], [...ascii, '\ud83d'], ['', '', 'é', '', 'a']]) {
      const got = transcoded(urls);
      urls.forEach((url, i) => expect(got[i], JSON.stringify(url)).toEqual(encoder.encode(url)));
    }
  });

  it('encodes a robots.txt body as TextEncoder does, at every length and however long', () => {
    const next = rng(1607);
    const texts = ['', 'a', '\ud83d', ...Array.from({ length: 208 }, (_, i) => randomString(next, i < 200 ? 100 : 200_000))];
    for (const text of texts) {
      const got = kernel().encodeText(text, 64);
      expect(got.byteOffset, 'at the start of the scratch block').toBe(kernel().scratch(0));
      expect(Buffer.compare(got, encoder.encode(text)), `${text.length} units`).toBe(0);
    }
  });

  it('parses a body given as text as it parses its UTF-8 bytes', () => {
    const next = rng(1609);
    for (let i = 0; i < 50; i++) {
      const body = `User-agent: *\nDisallow: /${randomString(next, 40)}\nAllow: /${randomString(next, 40)}*x$\nSitemap: https://a.test/${randomString(next, 20)}\nx-${randomString(next, 10)}: ${randomString(next, 30)}\n`;
      const text = RobotsTxt.parse(body);
      const bytes = RobotsTxt.parse(encoder.encode(body));
      expect(text.groups, JSON.stringify(body)).toEqual(bytes.groups);
      expect(text.records(), JSON.stringify(body)).toEqual(bytes.records());
      expect(text.sitemaps).toEqual(bytes.sitemaps);
    }
  });

  it('never pairs surrogates across two URLs, and reads each lone one as U+FFFD', () => {
    const urls = ['/a\ud83d', '\ude00b', '\ud83d', '\ude00', '/x\u{1F600}', '\ud83d\ud83d\ude00', ''];
    const hex = transcoded(urls).map((b) => Buffer.from(b).toString('hex'));
    expect(hex).toEqual(['2f61efbfbd', 'efbfbd62', 'efbfbd', 'efbfbd', '2f78f09f9880', 'efbfbdf09f9880', '']);
  });

  it('cuts batches by URL count and by length, and a URL longer than a batch goes alone', () => {
    const long = `/${'é'.repeat(BATCH_UNITS - 3)}`; // '/a' still fits after it
    const tooLong = `/${'\u{1F600}'.repeat(BATCH_UNITS)}`;
    const urls = [...Array.from({ length: BATCH_URLS + 3 }, (_, i) => `/${i}é`), long, '/a', tooLong, '/b', long, long];
    const got = transcoded(urls);
    urls.forEach((url, i) => expect(got[i]).toEqual(encoder.encode(url)));
    const batch = batchArea();
    expect(batch.fill(urls, 0)).toBe(BATCH_URLS);
    expect(batch.fill(urls, BATCH_URLS + 3)).toBe(2);
    expect(batch.fill(urls, BATCH_URLS + 5)).toBe(0);
    expect(batch.fill(urls, BATCH_URLS + 7)).toBe(1);
  });
});

describe.each(['rfc', 'google'] as const)('checkMany verdicts on strings no TextEncoder call sees, mode %s', (mode) => {
  it('agree with isAllowed for lone surrogates, pairs and code points above U+8000', () => {
    const robots = RobotsTxt.parse('user-agent: *\ndisallow: /%EF%BF%BD\ndisallow: /*😀$\ndisallow: /中\nallow: /中/ok\n', { mode });
    const next = rng(1602);
    const urls = Array.from({ length: 4000 }, (_, i) => `${i % 3 === 0 ? 'https://h.example' : ''}/${randomString(next, 24)}`);
    urls.push('/\ud83d', '/\ude00x', '/a/\u{1F600}', '/中x', '/中/ok');
    const matcher = robots.matcher('Bot');
    const verdicts = matcher.checkMany(urls);
    expect(verdicts).toEqual(Uint8Array.from(urls, (url) => (robots.isAllowed(url, 'Bot') ? 1 : 0)));
    // Google's matcher takes a URL's bytes as they are, and never finds them in the
    // percent-encoded form it gives non-ASCII patterns.
    expect(Array.from(verdicts.subarray(-5))).toEqual(mode === 'rfc' ? [0, 0, 0, 0, 1] : [1, 1, 1, 1, 1]);
    if (mode === 'rfc') expect(verdicts.filter((v) => v === 0).length).toBeGreaterThan(100);
  });
});
