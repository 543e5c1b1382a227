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

/** The substring lengths hashed (code units): 4 serves literals of 4–7 units, 8 the longer ones. */
export const GRAM_LENGTHS = [4, 8] as const;
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

/** A 32-bit mix of two 32-bit words (murmur3's finalizer over their combination). */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h ^ b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** The hash of each 4-unit window of folded units u (index i: u[i..i+3]). */
function fourGramHashes(u: ArrayLike<number>): Uint32Array {
  const n = Math.max(0, u.length - 3);
  const h = new Uint32Array(n);
  for (let i = 0; i < n; i++) h[i] = mix(u[i] | (u[i + 1] << 16), u[i + 2] | (u[i + 3] << 16));
  return h;
}

/** The hash of an 8-unit window from the hashes of its two halves (kept apart from the 4-grams' by the constant). */
const eightGram = (left: number, right: number): number => mix(left ^ 0x5bd1e995, right);

/** Every gram hash of folded units u, 4-grams then 8-grams (with repeats). */
function gramHashes(u: ArrayLike<number>, visit: (h: number) => void): void {
  const h4 = fourGramHashes(u);
  for (let i = 0; i < h4.length; i++) visit(h4[i]);
  for (let i = 0; i + 4 < h4.length; i++) visit(eightGram(h4[i], h4[i + 4]));
}

/** The filter of a file's stored text (lines joined by \n), as files_grams keeps it. */
export function gramBloom(text: string): Uint8Array {
  const bytes = Math.max(MIN_BYTES, Math.ceil((text.length * BITS_PER_UNIT) / 8));
  const bloom = new Uint8Array(bytes);
  const bits = bytes * 8;
  const u = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) u[i] = foldUnit(text.charCodeAt(i));
  gramHashes(u, (h) => {
    const b = h % bits;
    bloom[b >>> 3] |= 1 << (b & 7);
  });
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
      if (piece.length >= GRAM_LENGTHS[0]) gramHashes(piece, (h) => out.add(h));
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
  for (const h of probes) {
    const b = h % bits;
    if ((bloom[b >>> 3] & (1 << (b & 7))) === 0) return false;
  }
  return true;
}
