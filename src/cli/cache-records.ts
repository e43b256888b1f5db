// The format of the filter command's cache file (cache-file.ts), read and written a record at a
// time so that a file of any size needs no more memory than its largest record:
//
//   robots-wasm-cache 2 <generation> <id>\n        the header: which write made the file
//   <crc32 of the JSON, 8 hex digits> <JSON>\n      one record per line (RobotsCacheRecord)
//
// The file is untrusted input: a line whose checksum or JSON is wrong, or that is too long,
// is skipped and the rest is still read.

import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** Lines longer than this are skipped: a record holds one robots.txt body, base64. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;
const READ_BYTES = 1 << 20;
const WRITE_BYTES = 1 << 20;
const MAGIC = 'robots-wasm-cache';
const HEADER = /^robots-wasm-cache 2 ([0-9]{1,15}) ([0-9a-f]{32})$/;

/** Which write made a file: its generation (one more than the file it replaced) and a random id. */
export interface Header {
  generation: number;
  id: string;
}

/** A fresh header for the write that follows `previous` (undefined: the first). */
export function nextHeader(previous: Header | undefined): Header {
  return { generation: (previous?.generation ?? 0) + 1, id: randomBytes(16).toString('hex') };
}

/** The header line of `header`. */
export function headerLine(header: Header): string {
  return `${MAGIC} 2 ${header.generation} ${header.id}\n`;
}

/** The header a first line holds, or undefined when it is not one. */
export function parseHeader(line: Buffer): Header | undefined {
  const match = HEADER.exec(line.toString('latin1'));
  return match === null ? undefined : { generation: Number(match[1]), id: match[2] };
}

/** One record's line: the checksum of its JSON, the JSON, LF. */
export function recordLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** The value of a record line (without its LF), or undefined when the line is damaged. */
export function parseRecordLine(line: Buffer): unknown {
  const sum = line.toString('latin1', 0, 8);
  if (line.length < 10 || line[8] !== 0x20 || !/^[0-9a-f]{8}$/.test(sum) || crc32(line.subarray(9)) !== Number.parseInt(sum, 16)) return undefined;
  try {
    return JSON.parse(line.toString('utf8', 9));
  } catch {
    return undefined;
  }
}

/**
 * The lines of a file from its start, without their LF, read a block at a time; a line longer
 * than MAX_RECORD_BYTES comes as undefined, its bytes never held together.
 */
export async function* fileLines(handle: FileHandle): AsyncGenerator<Buffer | undefined> {
  const block = Buffer.allocUnsafe(READ_BYTES);
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  for (let position = 0; ;) {
    const { bytesRead } = await handle.read(block, 0, READ_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    for (let start = 0; start < bytesRead;) {
      const lf = block.indexOf(0x0a, start);
      const end = lf < 0 || lf >= bytesRead ? bytesRead : lf;
      if (!tooLong && size + end - start > MAX_RECORD_BYTES) [tooLong, parts, size] = [true, [], 0];
      if (!tooLong) parts.push(Buffer.from(block.subarray(start, end)));
      size += end - start;
      if (end === bytesRead) break;
      yield tooLong ? undefined : Buffer.concat(parts, size);
      [parts, size, tooLong] = [[], 0, false];
      start = end + 1;
    }
  }
  if (tooLong || size > 0) yield tooLong ? undefined : Buffer.concat(parts, size);
}

/** Writes all of `bytes` at the file's current end: a write may take fewer bytes than it is given. */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
}

/** Writes lines to a file in large writes. */
export class BufferedWriter {
  #parts: string[] = [];
  #size = 0;

  constructor(readonly handle: FileHandle) {}

  /** Adds `text`, writing what is buffered once it is large. */
  async write(text: string): Promise<void> {
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size >= WRITE_BYTES) await this.flush();
  }

  /** Writes `line` as it is, and a LF. */
  async writeLine(line: Buffer): Promise<void> {
    await this.flush();
    await writeAll(this.handle, line);
    await this.write('\n');
  }

  /** Writes what is buffered. */
  async flush(): Promise<void> {
    if (this.#size === 0) return;
    const text = this.#parts.join('');
    [this.#parts, this.#size] = [[], 0];
    await writeAll(this.handle, Buffer.from(text));
  }
}
