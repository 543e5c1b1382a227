// The fast paths of indexing must produce exactly what the straightforward code did: the JS SHA-256
// (and Node's parse worker's node:crypto content hash) against crypto.subtle, the hand-rolled identsOf scan against the regex scan it replaced (its output
// is stored in the FTS table and must be reproduced verbatim to delete rows).
// @lane unit
import { describe, expect, it } from 'vitest';
import { sha256, sha256Hex } from '../core/index/sha256.ts';
import { identsOf, splitIdentifier, MEMO_GENERATION, splitMemoSize } from '../core/text/analyzer.ts';
import { nodeContentHash } from '../runtimes/node/content-hash.ts';

async function subtleHex(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)).toString('hex');
}

describe('sha256', () => {
  it('matches crypto.subtle around every block boundary and on larger inputs', async () => {
    const lengths = [...Array.from({ length: 200 }, (_, i) => i), 1000, 4095, 4096, 65535, 65536, 65537, 524_289, 1_000_003];
    for (const n of lengths) {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = (i * 131 + n * 7) & 255;
      const want = await subtleHex(b);
      expect(Buffer.from(sha256(b)).toString('hex'), `length ${n}`).toBe(want);
      expect(sha256Hex(b, 16)).toBe(want.slice(0, 32));
      // Node's parse worker hashes with node:crypto: the same content hash as the in-thread path.
      expect(nodeContentHash(b), `length ${n}, node:crypto`).toBe(want.slice(0, 32));
      const shifted = new Uint8Array(n + 5);
      shifted.set(b, 5);
      expect(sha256Hex(shifted.subarray(5)), `length ${n}, offset view`).toBe(want);
    }
  });

  it('gives the known digests', () => {
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

/** identsOf as it was first written: a Unicode regex over the text, every distinct run of 3+ chars split once. */
function referenceIdentsOf(text: string): string {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const w = m[0];
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    if (!/\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u.test(w)) continue;
    const parts: string[] = [];
    for (const sub of w.split('_')) {
      if (!sub) continue;
      const p = splitIdentifier(sub);
      if (p.length > 1) parts.push(p.join(' '));
    }
    if (parts.length) out.push(parts.join(' '));
  }
  return out.join(' ');
}

describe('identsOf', () => {
  it('splits code identifiers', () => {
    expect(identsOf('public Task<List<CatalogItem>> GetCatalogItems2Async(int max_items) => HTTPServer2Go;')).toBe(
      'catalog item get catalog items 2 async http server 2 go',
    );
    expect(identsOf('ab aB abc lower Upper UPPER')).toBe('');
    expect(identsOf('OrderService x OrderService y GetItems OrderService')).toBe('order service get items');
  });

  it('matches the regex scan on random text with non-ASCII letters, digits, astral chars and lone surrogates', () => {
    const alphabet = ['a', 'b', 'Z', 'Q', 'x', 'Y', '0', '7', '_', '_', ' ', '.', '-', '\n', 'é', 'É', 'ß', 'Ω', 'ω', '٣', '²', '½', 'Ⅻ', '中',
      '𝐀', '𝐚', '😀', '\ud800', '\udc00', 'ǅ', 'ʰ', '\u0301', 'İ', 'ﬁ'];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 20_000; k++) {
      let s = '';
      const len = Math.floor(rnd() * 24);
      for (let j = 0; j < len; j++) s += alphabet[Math.floor(rnd() * alphabet.length)];
      expect(identsOf(s), JSON.stringify(s)).toBe(referenceIdentsOf(s));
    }
  });

  it("answers the same through the memo's generations, which stay bounded", () => {
    // More distinct identifiers than two generations hold, then the first ones again (evicted by then),
    // and a word used throughout (kept by moving it back to the young generation).
    const word = (i: number) => `memoWord${i.toString(36)}Part`;
    const total = MEMO_GENERATION * 3;
    for (let i = 0; i < total; i += 256) {
      const text = Array.from({ length: 256 }, (_, j) => word(i + j)).join(' ') + ' KeptAcrossGenerations';
      const idents = identsOf(text);
      if (i % 4096 === 0) expect(idents).toBe(referenceIdentsOf(text));
      expect(splitMemoSize()).toBeLessThanOrEqual(2 * MEMO_GENERATION);
    }
    const again = Array.from({ length: 200 }, (_, j) => word(j)).join(' ');
    expect(identsOf(again)).toBe(referenceIdentsOf(again));
  });
});
