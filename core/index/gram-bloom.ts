// The literal index's second filter (files_grams, schema.ts): per file, a Bloom filter of the hashes
// of every 4- and 8-character substring of its stored text, so that a literal's candidates from the
// trigram index (files_tri, which knows only which trigrams a file holds, not where) are narrowed to
// the files that hold its longer pieces too — before their text is read. At 50k chunks the trigrams
// let through 500–1,300 files for literals found in 60–120 (their trigrams all occur in the file, in
// different places), and reading and inflating those wrong files was most of the slowest searches.
// Owns the folding, the hashing and the filter's bytes on both sides (the writer's and the search's),
// which must agree bit for bit; which files are candidates is core/search/literal/'s.
//
// Folding: ASCII letters lowercased, and the two non-ASCII members of ASCII letters' case orbits
// (U+017F ſ → s, U+212A Kelvin → k, which RE2's case-insensitive `s`/`k` match), every other code
// unit as it is. A search folds its literal's keys (trigrams.ts keyOf) the same way, so every file
// holding the literal — case-sensitive or not — holds every probe: the filter only ever drops files
// that cannot match (a Bloom filter has false positives, never false negatives).

// The substring lengths hashed (code units): 4 serves literals of 4–7 units, 8 the longer ones.
/**
 * Filter bits per code unit of text (one bit set per hashed substring): about 0.84 distinct 4- and
 * 8-grams a character in source code, so about 0.4 of the bits are set and a wrong file lacking m
 * of a literal's grams passes with probability ~0.4^m. 2 bits a character = 0.25x the text bytes.
 */
const BITS_PER_UNIT = 2;
const MIN_BYTES = 8;

function foldUnit(c: number): number {
  if (c >= 65 && c <= 90) return c + 32;
  if (c === 0x17f) return 115;
  if (c === 0x212a) return 107;
  return c;
}

/**
 * A 32-bit mix of two 32-bit words (murmur3's finalizer over their combination). Kept in int32
 * (never `>>> 0`): an unsigned result above 2^31 is a heap number in V8, and allocating one per
 * character made filling the index 10x slower.
 */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h ^ b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/** The hash of an 8-unit window from the hashes of its two halves (kept apart from the 4-grams' by the constant). */
const eightGram = (left: number, right: number): number => mix(left ^ 0x5bd1e995, right);

/** The filter bit of a gram hash. */
const bitOf = (h: number, bits: number): number => (h & 0x7fffffff) % bits;

/** Scratch for the 4-gram hashes of one text (grown up to SCRATCH_MOST units, never shrunk). */
let scratch = new Int32Array(4096);
const SCRATCH_MOST = 1 << 20;

/**
 * Fills `h4` with the hash of each 4-unit window of the folded units (i: units i..i+3), the units
 * given by `unit(i)`; returns how many there are.
 */
function fourGramHashes(length: number, unit: (i: number) => number, h4: Int32Array): number {
  const n = Math.max(0, length - 3);
  if (n === 0) return 0;
  let u0 = unit(0);
  let u1 = unit(1);
  let u2 = unit(2);
  for (let i = 0; i < n; i++) {
    const u3 = unit(i + 3);
    h4[i] = mix(u0 | (u1 << 16), u2 | (u3 << 16));
    u0 = u1;
    u1 = u2;
    u2 = u3;
  }
  return n;
}

/** The filter of a file's stored text (lines joined by \n), as files_grams keeps it. */
export function gramBloom(text: string): Uint8Array {
  const bytes = Math.max(MIN_BYTES, Math.ceil((text.length * BITS_PER_UNIT) / 8));
  const bloom = new Uint8Array(bytes);
  const bits = bytes * 8;
  if (scratch.length < text.length && text.length <= SCRATCH_MOST) scratch = new Int32Array(Math.min(SCRATCH_MOST, Math.max(text.length, scratch.length * 2)));
  const h4 = scratch.length >= text.length ? scratch : new Int32Array(text.length);
  const n = fourGramHashes(text.length, (i) => foldUnit(text.charCodeAt(i)), h4);
  for (let i = 0; i < n; i++) {
    const b = bitOf(h4[i], bits);
    bloom[b >> 3] |= 1 << (b & 7);
  }
  for (let i = 0; i + 4 < n; i++) {
    const b = bitOf(eightGram(h4[i], h4[i + 4]), bits);
    bloom[b >> 3] |= 1 << (b & 7);
  }
  return bloom;
}

/**
 * The gram hashes every file holding these literals holds, each literal given by its characters'
 * keys (trigrams.ts literalKeys; null for a character a case-insensitive match cannot key, which
 * splits the literal into pieces hashed apart). Empty when no piece has 4 units.
 */
export function gramProbes(literals: ReadonlyArray<ReadonlyArray<string | null>>): number[] {
  const out = new Set<number>();
  for (const keys of literals) {
    let piece: number[] = [];
    const flush = () => {
      const h4 = new Int32Array(piece.length);
      const n = fourGramHashes(piece.length, (i) => piece[i], h4);
      for (let i = 0; i < n; i++) out.add(h4[i]);
      for (let i = 0; i + 4 < n; i++) out.add(eightGram(h4[i], h4[i + 4]));
      piece = [];
    };
    for (const k of keys) {
      if (k === null) flush();
      else for (let i = 0; i < k.length; i++) piece.push(foldUnit(k.charCodeAt(i)));
    }
    flush();
  }
  return [...out];
}

/** Whether a file's filter holds every probe (false: the file cannot hold the literals). */
export function bloomHolds(bloom: Uint8Array, probes: readonly number[]): boolean {
  const bits = bloom.length * 8;
  if (bits === 0) return true; // no filter: cannot rule the file out
  for (let i = 0; i < probes.length; i++) {
    const b = bitOf(probes[i], bits);
    if ((bloom[b >> 3] & (1 << (b & 7))) === 0) return false;
  }
  return true;
}
