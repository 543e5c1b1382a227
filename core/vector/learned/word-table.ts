// The corpus builder's memo of identifier-like runs, keyed by the run's code units in the text
// being scanned: an open-addressing table whose keys live in one pooled Uint16Array, so a run seen
// before (code repeats them endlessly) is found without cutting it out as a string or hashing a
// string in a Map — the scan hashes each code unit as it reads it (forEachRun). Owns the table,
// that scan and the pool of run records a table's values point at (RunParts: a run's part count,
// then one int per part); what a part's int means is the user's (cooccur.ts: corpus ids,
// token-ids.ts: a model's vocabulary ids).
import { ASCII_IDENT_CLASS, isIdentCodePoint } from '../../text/analyzer.ts';

const EMPTY = -1;

/**
 * Run records end to end in one growable Int32Array: a run's part count, then one int per part.
 * An offset stays valid until reset(); read `data` after an append (it may have grown).
 */
export class RunParts {
  data = new Int32Array(1 << 16);
  private end = 0;

  /** Appends a run of `parts`, each stored as `valueOf(part)` (called in order), and returns its offset. */
  append(parts: readonly string[], valueOf: (part: string) => number): number {
    const need = this.end + parts.length + 1;
    if (need > this.data.length) {
      const grown = new Int32Array(Math.max(this.data.length * 2, need));
      grown.set(this.data.subarray(0, this.end));
      this.data = grown;
    }
    const at = this.end;
    this.data[at] = parts.length;
    for (let i = 0; i < parts.length; i++) this.data[at + 1 + i] = valueOf(parts[i]);
    this.end = need;
    return at;
  }

  /** Forgets every record (offsets handed out before are stale); `release` also drops the memory. */
  reset(release = false): void {
    this.end = 0;
    if (release) this.data = new Int32Array(0);
  }
}

export class RunTable {
  private keys = new Uint16Array(1 << 16);
  private keysEnd = 0;
  /** Per entry: key start, key length, hash, value. */
  private entries = new Int32Array(4 * 1024);
  private count = 0;
  private slots = new Int32Array(1 << 12).fill(EMPTY);
  private mask = (1 << 12) - 1;

  get size(): number {
    return this.count;
  }

  /** The value of the run text[start, start+len) with hash `h`, or -1. */
  get(text: string, start: number, len: number, h: number): number {
    const { slots, entries, keys, mask } = this;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = slots[s];
      if (e === EMPTY) return -1;
      const o = e * 4;
      if (entries[o + 2] === h && entries[o + 1] === len) {
        const k = entries[o];
        let i = 0;
        while (i < len && keys[k + i] === text.charCodeAt(start + i)) i++;
        if (i === len) return entries[o + 3];
      }
    }
  }

  /** Adds the run (not present) with its value. */
  set(text: string, start: number, len: number, h: number, value: number): void {
    if ((this.count + 1) * 2 > this.slots.length) this.rehash();
    if (this.keysEnd + len > this.keys.length) {
      const grown = new Uint16Array(Math.max(this.keys.length * 2, this.keysEnd + len));
      grown.set(this.keys.subarray(0, this.keysEnd));
      this.keys = grown;
    }
    for (let i = 0; i < len; i++) this.keys[this.keysEnd + i] = text.charCodeAt(start + i);
    if ((this.count + 1) * 4 > this.entries.length) {
      const grown = new Int32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    const o = this.count * 4;
    this.entries[o] = this.keysEnd;
    this.entries[o + 1] = len;
    this.entries[o + 2] = h;
    this.entries[o + 3] = value;
    this.keysEnd += len;
    this.place(this.count++, h);
  }

  /** Lets go of the arrays. */
  clear(): void {
    this.keys = new Uint16Array(0);
    this.entries = new Int32Array(0);
    this.slots = new Int32Array(1).fill(EMPTY);
    this.mask = 0;
    this.count = 0;
    this.keysEnd = 0;
  }

  private place(e: number, h: number): void {
    const { slots, mask } = this;
    let s = h & mask;
    while (slots[s] !== EMPTY) s = (s + 1) & mask;
    slots[s] = e;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    this.mask = this.slots.length - 1;
    for (let e = 0; e < this.count; e++) this.place(e, this.entries[e * 4 + 2]);
  }
}

/**
 * Calls `each(start, end, hash)` for every identifier-like run of `text` — the runs forEachIdentRun
 * (tokens.ts) gives, in order — with a hash of the run's code units (FNV-1a, then an avalanche).
 */
export function forEachRun(text: string, each: (start: number, end: number, hash: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (ASCII_IDENT_CLASS[c] === 0) {
        i++;
        continue;
      }
    } else {
      const cp = text.codePointAt(i)!;
      if (!isIdentCodePoint(cp)) {
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
    }
    const start = i;
    let h = 0x811c9dc5;
    while (i < n) {
      const u = text.charCodeAt(i);
      if (u < 128) {
        if (ASCII_IDENT_CLASS[u] === 0) break;
        h = Math.imul(h ^ u, 0x01000193);
        i++;
      } else {
        const cp = text.codePointAt(i)!;
        if (!isIdentCodePoint(cp)) break;
        h = Math.imul(h ^ u, 0x01000193);
        if (cp > 0xffff) h = Math.imul(h ^ text.charCodeAt(i + 1), 0x01000193);
        i += cp > 0xffff ? 2 : 1;
      }
    }
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    each(start, i, h & 0x7fffffff);
  }
}
