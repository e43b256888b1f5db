// The integrity check of a table image: CRC-32C (Castagnoli) over the whole image, its own
// field (HDR_CHECKSUM) read as zeros. Matcher.toBytes writes it and Matcher.fromBytes checks
// it before validate.ts looks at the structure: the validator only proves that the matcher
// stays inside the image, and a damaged image that passes it can still change verdicts.
// CRC-32C detects every burst of up to 32 bits, so every single-bit flip, and every error of
// up to 3 bits in an image under 256 MiB. Slicing-by-16: sixteen table lookups per 16 bytes,
// half as many dependent steps per byte as slicing-by-8.

import { HDR_CHECKSUM } from '../src/wasm/abi';

/** The reflected CRC-32C polynomial. */
const POLY: u32 = 0x82f63b78;

// Sixteen tables of 256 u32: table k gives the CRC of a byte followed by k zero bytes.
const TABLES = memory.data(16 * 256 * 4, 16);

// @ts-ignore: decorator
@inline function entry(k: u32, byte: u32): u32 {
  return load<u32>(TABLES + ((<usize>k << 10) | (<usize>byte << 2)));
}

/** Fills the lookup tables (called once, before any checksum). */
export function initChecksumTables(): void {
  for (let b: u32 = 0; b < 256; b++) {
    let crc = b;
    for (let i = 0; i < 8; i++) crc = (crc >>> 1) ^ (POLY & (0 - (crc & 1)));
    store<u32>(TABLES + (<usize>b << 2), crc);
  }
  for (let k: u32 = 1; k < 16; k++) {
    for (let b: u32 = 0; b < 256; b++) {
      const previous = entry(k - 1, b);
      store<u32>(TABLES + ((<usize>k << 10) | (<usize>b << 2)), (previous >>> 8) ^ entry(0, previous & 0xff));
    }
  }
}

/**
 * The CRC of the four bytes of `w` (little-endian) followed by as many zero bytes as `tables`
 * is tables past table 0 (1 KiB each).
 */
// @ts-ignore: decorator
@inline function lookup4(w: u32, tables: usize): u32 {
  return load<u32>(tables + (<usize>(w & 0xff) << 2) + 3072) ^ load<u32>(tables + (<usize>((w >>> 8) & 0xff) << 2) + 2048)
    ^ load<u32>(tables + (<usize>((w >>> 16) & 0xff) << 2) + 1024) ^ load<u32>(tables + (<usize>(w >>> 24) << 2));
}

/** The running (pre-inverted) CRC after the `len` bytes at `at`. */
function update(crc: u32, at: usize, len: usize): u32 {
  const end = at + len;
  for (; at + 16 <= end; at += 16) {
    crc = lookup4(load<u32>(at) ^ crc, TABLES + 12 * 1024) ^ lookup4(load<u32>(at, 4), TABLES + 8 * 1024)
      ^ lookup4(load<u32>(at, 8), TABLES + 4 * 1024) ^ lookup4(load<u32>(at, 12), TABLES);
  }
  for (; at < end; at++) crc = (crc >>> 8) ^ load<u32>(TABLES + (<usize>((crc ^ <u32>load<u8>(at)) & 0xff) << 2));
  return crc;
}

/** Four zero bytes: the checksum field as the checksum reads it. */
const ZEROS = memory.data(4);

/**
 * CRC-32C of the `size`-byte image at `table` (at least HEADER_SIZE bytes) with its checksum
 * field read as zeros: the value toBytes writes there and fromBytes expects.
 */
export function tableChecksum(table: usize, size: u32): u32 {
  let crc = update(0xffffffff, table, HDR_CHECKSUM);
  crc = update(crc, ZEROS, 4);
  crc = update(crc, table + HDR_CHECKSUM + 4, <usize>size - HDR_CHECKSUM - 4);
  return ~crc;
}

/** CRC-32C of the `len` bytes at `at`: the integrity check of a record a RobotsCache shares through a store. */
export function bytesChecksum(at: usize, len: u32): u32 {
  return ~update(0xffffffff, at, <usize>len);
}
