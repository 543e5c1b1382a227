// Deterministic numerics for training: a seeded PRNG and a natural logarithm built from IEEE basic
// operations only. Math.log/exp/pow are "implementation-approximated" by the language (engines may
// differ in the last bit); +, −, ×, ÷ and sqrt are exactly rounded everywhere, so a model trained
// from the same chunks is bit-identical in Node, Deno and any browser. Owns nothing else.

/** mulberry32: a small, fast 32-bit PRNG; the same seed gives the same stream in every runtime. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Uniform doubles in [-1, 1) (exact: a 32-bit integer over 2^31, minus 1). */
export function uniformSigned(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 2147483648 - 1;
}

const LN2 = 0.6931471805599453;
const SQRT2 = 1.4142135623730951;
const bits = new DataView(new ArrayBuffer(8));

/**
 * ln(x) for finite x > 0, to about 1 ulp: x = m · 2^e with m in [√½, √2], then
 * ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716, by its series to s^27.
 */
export function ln(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return Infinity;
  let e = 0;
  if (x < 2.2250738585072014e-308) {
    x *= 18014398509481984; // 2^54: subnormals get an exponent
    e = -54;
  }
  bits.setFloat64(0, x);
  const hi = bits.getUint32(0);
  e += ((hi >>> 20) & 0x7ff) - 1023;
  bits.setUint32(0, (hi & 0x000fffff) | 0x3ff00000);
  let m = bits.getFloat64(0);
  if (m > SQRT2) {
    m /= 2;
    e += 1;
  }
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  // Horner over 1 + s²/3 + s⁴/5 + … + s²⁶/27.
  let p = 1 / 27;
  for (let k = 25; k >= 1; k -= 2) p = p * s2 + 1 / k;
  return e * LN2 + 2 * s * p;
}
