// The embedding cache's key of a chunk text: 8 bytes, under one of two hash functions. `h64` (every
// model created now) hashes the string's UTF-16 code units with two 32-bit murmur3-style lanes and
// their cross-mixing (integer ops only, so every runtime gives the same bytes) — ~20x cheaper than
// `sha256-8` (the first 8 bytes of the SHA-256 of its UTF-8), which models written before it was
// introduced keep: a model row names its function (ModelInfo.textHash; absent: sha256-8), so an
// index built before keeps its cache hits. A key of one function never equals one of the other
// but by chance (2^-64), so a mix-up could only cost a cache miss. Owns the hash functions and the
// choice between them; the rows are store.ts's. Not a defence against crafted collisions.
import { sha256 } from '../index/sha256.ts';

export type TextHashKind = 'sha256-8' | 'h64';

/** What a model created now keys its vectors with. */
export const CURRENT_TEXT_HASH: TextHashKind = 'h64';

/** The function a model row's vectors are keyed with (rows written before ModelInfo.textHash existed: sha256-8). */
export function textHashKindOf(info: { textHash?: unknown } | undefined): TextHashKind {
  return info?.textHash === 'h64' ? 'h64' : 'sha256-8';
}

const encoder = new TextEncoder();

/** The cache key of a chunk text under `kind` (8 bytes). */
export function textHash(text: string, kind: TextHashKind = CURRENT_TEXT_HASH): Uint8Array {
  return kind === 'h64' ? h64(text) : sha256(encoder.encode(text)).slice(0, 8);
}

/** Two murmur3_x86_32 lanes (different seeds and constants) over the code units, two per 32-bit word; the length and a cross-mix at the end. */
export function h64(text: string): Uint8Array {
  const n = text.length;
  let h1 = 0x9747b28c ^ n;
  let h2 = 0x3c6ef372 ^ n;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const k = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    let k1 = Math.imul(k, 0xcc9e2d51);
    k1 = Math.imul((k1 << 15) | (k1 >>> 17), 0x1b873593);
    h1 ^= k1;
    h1 = (Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64) | 0;
    let k2 = Math.imul(k, 0x85ebca77);
    k2 = Math.imul((k2 << 17) | (k2 >>> 15), 0xc2b2ae3d);
    h2 ^= k2;
    h2 = (Math.imul((h2 << 11) | (h2 >>> 21), 5) + 0x52dce729) | 0;
  }
  if (i < n) {
    const k = text.charCodeAt(i);
    let k1 = Math.imul(k, 0xcc9e2d51);
    h1 ^= Math.imul((k1 << 15) | (k1 >>> 17), 0x1b873593);
    let k2 = Math.imul(k, 0x85ebca77);
    h2 ^= Math.imul((k2 << 17) | (k2 >>> 15), 0xc2b2ae3d);
  }
  h1 = (h1 + h2) | 0;
  h2 = (h2 + h1) | 0;
  h1 = fmix32(h1);
  h2 = fmix32(h2);
  h1 = (h1 + h2) | 0;
  h2 = (h2 + h1) | 0;
  const out = new Uint8Array(8);
  out[0] = h1 >>> 24;
  out[1] = h1 >>> 16;
  out[2] = h1 >>> 8;
  out[3] = h1;
  out[4] = h2 >>> 24;
  out[5] = h2 >>> 16;
  out[6] = h2 >>> 8;
  out[7] = h2;
  return out;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** A hash's bytes as hex (a Map key). */
export function hashKey(h: Uint8Array): string {
  let s = '';
  for (let i = 0; i < h.length; i++) s += h[i].toString(16).padStart(2, '0');
  return s;
}
