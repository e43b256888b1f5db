// Table images as Matcher.fromBytes checks them. CRC-32C is computed here bit by bit, apart from
// the kernel's table-driven code (assembly/checksum.ts), so that the tests check the format.
import { HDR_CHECKSUM } from '../../src/wasm/abi.js';

/** CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `bytes`. */
export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0x82f63b78 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** What the checksum field of `image` should hold: the CRC-32C of the image with the field zeroed. */
export function imageChecksum(image: Uint8Array): number {
  const zeroed = image.slice();
  zeroed.fill(0, HDR_CHECKSUM, HDR_CHECKSUM + 4);
  return crc32c(zeroed);
}

/**
 * Writes the checksum of an image a test damaged on purpose (and returns it), so that what
 * fromBytes checks next is the structure.
 */
export function reseal(image: Uint8Array): Uint8Array {
  new DataView(image.buffer, image.byteOffset, image.byteLength).setUint32(HDR_CHECKSUM, imageChecksum(image), true);
  return image;
}
