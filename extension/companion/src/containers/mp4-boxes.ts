/**
 * The ISO BMFF box walk (ISO/IEC 14496-12 4.2: 32-bit size, type, 64-bit size when the size is 1, to the end when 0),
 * shared by every in-process MP4 reader: the sample tables (mp4-tables.ts), the fragment index (sidx.ts) and the copy
 * check's packet table (container-packets.ts).
 */

export interface Box {
  type: string;
  /** Start of the box (its header) and of its payload, and its end, in the buffer. */
  start: number;
  body: number;
  end: number;
}

export const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

export const malformed = (what: string) => new Error(`unreadable sample tables (${what})`);

/** The boxes in [from, to) of `b`; throws on a malformed header (every caller falls back on a throw). */
export function* boxes(b: Uint8Array, from = 0, to = b.length): Generator<Box> {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = from;
  while (at + 8 <= to) {
    let length = v.getUint32(at);
    let body = at + 8;
    if (length === 1) {
      if (at + 16 > to) throw malformed("box");
      length = Number(v.getBigUint64(at + 8));
      body = at + 16;
    } else if (length === 0) length = to - at;
    if (length < body - at || at + length > to) throw malformed(fourcc(b, at + 4));
    yield { type: fourcc(b, at + 4), start: at, body, end: at + length };
    at += length;
  }
}

/** The first child box of `type` in `parent`. */
export const child = (b: Uint8Array, parent: Box, type: string) => {
  for (const c of boxes(b, parent.body, parent.end)) if (c.type === type) return c;
  return undefined;
};

/**
 * The type and whole length of the box whose first bytes (up to 16) are `head`, for a box at `at` in a file or span
 * that ends at `end` (size 0 runs to it); null when the header is malformed or the box runs past `end`. For walking a
 * remote or on-disk file's top-level boxes one header read at a time.
 */
export function boxHeader(head: Uint8Array, at: number, end: number): { type: string; length: number } | null {
  if (head.length < 8) return null;
  const v = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let length = v.getUint32(0);
  if (length === 1) {
    if (head.length < 16) return null;
    length = Number(v.getBigUint64(8));
  } else if (length === 0) length = end - at;
  if (length < 8 || at + length > end) return null;
  return { type: fourcc(head, 4), length };
}
