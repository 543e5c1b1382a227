// Term proximity for rerank: BM25 counts a chunk's query words wherever they stand, so a 100-line
// chunk that says "order" at its top and "discount" at its bottom scores like the method whose one
// line computes the order's discount. Here a chunk's proximity is the most distinct query words
// (coverage words, file-evidence.ts: 3+ letters, inflection trimmed, substring match on the
// lowercase line so identifier parts count) that any window of `lines` consecutive lines of its body
// holds together; setting proximity_boost weighs a chunk (1 + boost) ^ ((near − 1) / (words − 1)),
// so one word alone weighs 1 and every word on a few lines 1 + boost.
// Owns the window count and the factor; which candidates it is read for is rerank.ts's.

/** The most distinct `words` that any `lines` consecutive lines of `body` hold together (0: none). */
export function nearWords(body: string, words: readonly string[], lines: number): number {
  if (!words.length || !body) return 0;
  const masks: number[] = [];
  const all = words.length >= 31 ? -1 : (1 << words.length) - 1;
  let held = 0;
  for (const line of body.toLowerCase().split('\n')) {
    let m = 0;
    for (let i = 0; i < words.length && i < 31; i++) if (line.includes(words[i])) m |= 1 << i;
    masks.push(m);
    held |= m;
  }
  if (!held) return 0;
  const width = Math.max(1, lines);
  let best = 0;
  for (let i = 0; i < masks.length; i++) {
    if (!masks[i]) continue;
    let m = 0;
    for (let j = i; j < Math.min(masks.length, i + width); j++) m |= masks[j];
    const n = popcount(m);
    if (n > best) best = n;
    if ((m & all) === all) break;
  }
  return best;
}

function popcount(m: number): number {
  let n = 0;
  for (let x = m >>> 0; x; x &= x - 1) n++;
  return n;
}

/** A chunk's proximity factor: (1 + boost) ^ ((near − 1) / (words − 1)); 1 for fewer than two words near. */
export function proximityFactor(near: number, words: number, boost: number): number {
  if (boost <= 0 || words < 2 || near < 2) return 1;
  return Math.pow(1 + boost, (near - 1) / (words - 1));
}
