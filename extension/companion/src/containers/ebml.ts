import { concat } from "../bytes";

/**
 * EBML, the element syntax of Matroska and WebM (RFC 8794): reading element headers (the copy check's packet table,
 * the WebM byte copy's index) and writing elements (the WebM byte copy's header, clusters and cues).
 */

/** Element IDs used here (RFC 9559), marker bits kept as they are written. */
export const MKV = {
  ebml: 0x1a45dfa3,
  ebmlVersion: 0x4286,
  ebmlReadVersion: 0x42f7,
  ebmlMaxIdLength: 0x42f2,
  ebmlMaxSizeLength: 0x42f3,
  docType: 0x4282,
  docTypeVersion: 0x4287,
  docTypeReadVersion: 0x4285,
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  seek: 0x4dbb,
  seekId: 0x53ab,
  seekPosition: 0x53ac,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  muxingApp: 0x4d80,
  writingApp: 0x5741,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackUid: 0x73c5,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  codecDelay: 0x56aa,
  defaultDuration: 0x23e383,
  contentEncodings: 0x6d80,
  cues: 0x1c53bb6b,
  cuePoint: 0xbb,
  cueTime: 0xb3,
  cueTrackPositions: 0xb7,
  cueTrack: 0xf7,
  cueClusterPosition: 0xf1,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  blockDuration: 0x9b,
  referenceBlock: 0xfb,
  void: 0xec,
} as const;

export const UNKNOWN_SIZE = -1;

/** A variable-length integer at `at`: its value (marker kept for IDs; all ones is UNKNOWN_SIZE) and length. */
export function vint(b: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number } | null {
  const first = b[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > b.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = b[at + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value: !keepMarker && allOnes ? UNKNOWN_SIZE : value, length };
}

export interface Element {
  id: number;
  /** Start of the payload and its end (exclusive), in the buffer's offsets. */
  start: number;
  end: number;
}

/** The element whose header is at `at` (its payload may run past the buffer); null when malformed or of unknown size. */
export function headerAt(b: Uint8Array, at: number): Element | null {
  const id = vint(b, at, true);
  const size = id && vint(b, at + id.length, false);
  if (!id || !size || size.value === UNKNOWN_SIZE) return null;
  const start = at + id.length + size.length;
  return { id: id.value, start, end: start + size.value };
}

/** The element at `at`, whole inside [at, limit); null otherwise. */
export function elementAt(b: Uint8Array, at: number, limit: number): Element | null {
  const e = headerAt(b, at);
  return e && e.end <= limit ? e : null;
}

/** The elements in [from, to); a malformed one is yielded as null and ends the walk. */
export function* elements(b: Uint8Array, from: number, to: number): Generator<Element | null> {
  let at = from;
  while (at < to) {
    const element = elementAt(b, at, to);
    yield element;
    if (!element) return;
    at = element.end;
  }
}

export const uint = (b: Uint8Array, e: Element) => {
  let value = 0;
  for (let i = e.start; i < e.end; i++) value = value * 256 + (b[i] ?? 0);
  return value;
};

export const float = (b: Uint8Array, e: Element) => {
  const v = new DataView(b.buffer, b.byteOffset + e.start, e.end - e.start);
  return e.end - e.start === 4 ? v.getFloat32(0) : e.end - e.start === 8 ? v.getFloat64(0) : 0;
};

export const text = (b: Uint8Array, e: Element) =>
  String.fromCharCode(...b.subarray(e.start, e.end)).replace(/\0+$/, "");

// ---------- writing

const idBytes = (id: number) => {
  const out: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return out;
};

/** A size as an 8-byte vint (fixed width: a header's layout is computed before its sizes are filled in). */
function size8(n: number): number[] {
  const out = [0x01];
  for (let i = 6; i >= 0; i--) out.push(Math.floor(n / 2 ** (8 * i)) & 0xff);
  return out;
}

/** The shortest size vint for n. */
function sizeBytes(n: number): number[] {
  for (let length = 1; length <= 8; length++) {
    if (n < 2 ** (7 * length) - 1) {
      const out: number[] = [];
      let v = n;
      for (let i = 0; i < length; i++, v = Math.floor(v / 256)) out.unshift(v & 0xff);
      out[0]! |= 0x80 >> (length - 1);
      return out;
    }
  }
  return size8(n);
}

/** An element holding `parts`. */
export const el = (id: number, ...parts: Uint8Array[]) => {
  const body = concat(parts);
  return concat([Uint8Array.from([...idBytes(id), ...sizeBytes(body.length)]), body]);
};

/** An element's header alone, for a payload of `length` bytes written after it (8-byte size). */
export const elHeader = (id: number, length: number) => Uint8Array.from([...idBytes(id), ...size8(length)]);

export const uintEl = (id: number, n: number, width?: number) => {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  while (bytes.length < (width ?? 1)) bytes.unshift(0);
  return el(id, Uint8Array.from(bytes));
};

export const floatEl = (id: number, x: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, x);
  return el(id, b);
};

export const textEl = (id: number, s: string) =>
  el(
    id,
    Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff),
  );

export const idEl = (id: number, value: number) => el(id, Uint8Array.from(idBytes(value)));
