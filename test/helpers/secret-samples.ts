// Test helper: turns a secret rule's sample (core/scan/secret-rules.ts) into text — each «CLASS:n»
// becomes n characters of that class from a seeded PRNG (so nothing secret-looking is stored in the
// repository, and a run is repeatable), «UUID» a GUID, «BASIC» base64 of `user:password` — and says
// which generated runs must never reach the index. Also the language a sample's format is read as.
import { mulberry32 } from '../../bench/corpus-gen.ts';
import type { SampleFormat } from '../../core/scan/secret-rules.ts';

const D = '0123456789';
const HEX = '0123456789abcdef';
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOW = 'abcdefghijklmnopqrstuvwxyz';
export const CLASSES: Record<string, string> = {
  AN: UP + LOW + D,
  UPAN: UP + D,
  LOWD: LOW + D,
  ALPHA: UP + LOW,
  D,
  HEX,
  UHEX: '0123456789ABCDEF',
  AH: 'abcdefgh' + D,
  B64: UP + LOW + D + '+/',
  URL: UP + LOW + D + '-_',
  B32: LOW + '234567',
  B32U: UP + '234567',
  BECH32: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
};

export type Gen = (alphabet: string, n: number) => string;

export function generator(seed: number): Gen {
  const next = mulberry32(seed);
  return (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

export interface Expanded {
  text: string;
  /** Generated runs of 8+ characters: none may be found in the index. */
  pieces: string[];
  /** Every generated run of 5+ characters (where the secret's lines are). */
  runs: string[];
}

/** A sample's text with its placeholders filled. */
export function expand(template: string, r: Gen): Expanded {
  const runs: string[] = [];
  const spans: Array<[number, number]> = [];
  let text = '';
  let last = 0;
  for (const m of template.matchAll(/«([A-Z0-9]+)(?::(\d+))?»/g)) {
    const [, cls, n] = m;
    let v: string;
    if (cls === 'UUID') v = [8, 4, 4, 4, 12].map((k) => r(HEX, k)).join('-');
    else if (cls === 'BASIC') v = btoa(`svc-${r(LOW, 4)}:${r(CLASSES.AN, 16)}`);
    else {
      const alphabet = CLASSES[cls];
      if (!alphabet || n === undefined) throw new Error(`unknown sample placeholder «${cls}${n ? `:${n}` : ''}»`);
      v = r(alphabet, Number(n));
    }
    text += template.slice(last, m.index);
    spans.push([text.length, text.length + v.length]);
    text += v;
    last = m.index! + m[0].length;
    if (v.length >= 5) runs.push(v);
  }
  text += template.slice(last);
  // Placeholders one separator apart (A3-«UPAN:6»-«UPAN:6»-…) make one secret.
  const merged: Array<[number, number]> = [];
  for (const [a, b] of spans) {
    const prev = merged.at(-1);
    if (prev && a - prev[1] <= 1 && /^[-._:/]?$/.test(text.slice(prev[1], a))) prev[1] = b;
    else merged.push([a, b]);
  }
  const pieces = merged.map(([a, b]) => text.slice(a, b)).filter((p) => p.length >= 8);
  return { text, pieces, runs };
}

/** The language (languages.ts id) a sample format's file is read as. */
export const FORMAT_LANG: Record<SampleFormat, string> = {
  cs: 'csharp', json: 'json', yaml: 'yaml', gha: 'yaml', azp: 'yaml', md: 'markdown', xml: 'msbuild', sh: 'text', docker: 'text', env: 'text',
};
