// Repository-learned synonyms (setting `learned_terms`, off at 0): what THIS repository calls the
// things its doc comments describe. Every documented member or type pairs the words of its doc
// comment (C# `///` summaries, JSDoc and block comments, prose line comments just above it) with the
// parts of its own name; over all of them, a word is linked to the name parts it co-occurs with far
// more often than chance (normalised PMI, with a floor on the pair's count), a few per word. A
// question's word that the repository documents but does not name things by ("persisted" above
// `Save…`, "throttle" above `RateLimiter…`; only a word few chunks hold: learned_rare) then gets
// those parts as low-weight OR terms of the keyword channel's any-term pass (the same merge as the model's neighbours: neighbour-terms.ts
// withNeighbourHits), and explain shows which (`learned_terms`).
// Owns learning the association from stored files (outline + text), its generation record (written
// by a whole-tree pass with the setting on, indexer.ts; deflated in a pack), and the choice of a
// question's terms; the rarity test and the call are pipeline.ts's, the merge into the pass is
// neighbour-terms.ts's. Measured: docs/search.md.
import type { Database } from '../sqlite/engine.ts';
import type { OutlineSymbol } from '../contract/outline.ts';
import { readStoredFile, type DeflateCodec } from '../index/file-data.ts';
import { readRecord, recordIsCurrent, writeRecord } from '../index/generation-record.ts';
import { splitIdentifier, STOP_WORDS } from '../text/analyzer.ts';
import { LANGUAGES } from '../languages/table.ts';
import type { NeighbourExpansion, NeighbourTerm, ParsedQuery } from './query.ts';
import { queryType } from './query-type.ts';

/** A word → its linked name parts, best first, each with its normalised PMI (rounded to 0.01). */
export type LearnedTerms = Map<string, Array<[string, number]>>;

/** A word must be documented this often, and a pair seen this often, to be linked. */
const MIN_WORD = 3;
const MIN_PAIR = 2;
/** Links kept per word at most (the query side takes fewer). */
const KEEP = 4;
/** The least normalised PMI a kept link needs (the query side may ask more). */
const KEEP_FLOOR = 0.2;
/** A word named things (a name part) at least this share as often as it was documented: not linked. */
const NAMED_SHARE = 0.25;
/** Doc comment markup and words every summary holds: they name no thing. */
const DOC_NOISE = new Set(
  ('summary param paramref typeparam typeparamref returns return remarks see seealso cref langword inheritdoc para code example ' +
    'exception value gets sets get set true false null name type types class method methods property properties instance object ' +
    'default new given specified provided current indicates indicating whether true otherwise will also called call calls creates ' +
    'create returns one two not has have been but only more other than such its via each same should must may might').split(' '),
);
/** A word: letters only, at least three. */
const WORD = /^\p{L}{3,}$/u;

/** A crude stem (plural and -ed/-ing endings), so `persisted` and `persists` meet; FTS5's porter does the real folding of the terms. */
export function crudeStem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && /(?:ss|ch|sh|x)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** The words of a text (identifiers split into their parts), lowercase, stemmed, without stop words and doc noise. */
function docWords(text: string, out: Set<string>): void {
  for (const run of text.replace(/<[^>]*>/g, ' ').match(/[\p{L}\p{N}_]+/gu) ?? []) {
    for (const part of splitIdentifier(run)) {
      if (!WORD.test(part) || STOP_WORDS.has(part) || DOC_NOISE.has(part)) continue;
      out.add(crudeStem(part));
    }
  }
}

/** The comment text of one line, or null when the line is not a doc or prose comment. */
function commentOf(line: string): string | null {
  const t = line.trim();
  if (t.startsWith('///')) return t.slice(3);
  if (t.startsWith('/**') || t.startsWith('*')) return t.replace(/^\/?\*+\/?/, '').replace(/\*\/$/, '');
  // A line comment counts when it reads as prose, not as commented-out code.
  if (t.startsWith('//') && !/[;{}]\s*$|=>|\)\s*$/.test(t)) return t.slice(2);
  return null;
}

/** An attribute or decorator line between a doc comment and its member. */
const ATTRIBUTE = /^\s*(?:\[.*\]|@\w[\w.]*(?:\(.*\))?)\s*$/;

/** The doc comment of a symbol starting at `start` (1-based): comment lines right above it (attributes skipped) and at its top. */
function docOf(lines: readonly string[], start: number): string {
  const out: string[] = [];
  let i = start - 2;
  while (i >= 0 && ATTRIBUTE.test(lines[i])) i--;
  for (let n = 0; i >= 0 && n < 40; i--, n++) {
    const c = commentOf(lines[i]);
    if (c === null) break;
    out.push(c);
  }
  for (let j = start - 1, n = 0; j < lines.length && n < 40; j++, n++) {
    const c = commentOf(lines[j]);
    if (c === null) break;
    out.push(c);
  }
  return out.join(' ');
}

/** Counts the pairs of one file's documented symbols into `acc`. */
export class PairCounter {
  /** Documented symbols counted. */
  blocks = 0;
  readonly words = new Map<string, number>();
  readonly parts = new Map<string, number>();
  readonly pairs = new Map<string, number>();
  /** Doc texts counted already: a doc repeated over overloads or generated families counts once. */
  private readonly docs = new Set<string>();

  addFile(lines: readonly string[], outline: readonly OutlineSymbol[]): void {
    const walk = (syms: readonly OutlineSymbol[]) => {
      for (const s of syms) {
        this.addSymbol(lines, s);
        if (s.children) walk(s.children);
      }
    };
    walk(outline);
  }

  private addSymbol(lines: readonly string[], s: OutlineSymbol): void {
    const doc = docOf(lines, s.start_line);
    if (!doc || this.docs.has(doc)) return;
    this.docs.add(doc);
    const parts = new Set<string>();
    for (const p of splitIdentifier(s.name)) if (WORD.test(p) && !STOP_WORDS.has(p)) parts.add(p);
    if (!parts.size) return;
    const words = new Set<string>();
    docWords(doc, words);
    if (!words.size) return;
    this.blocks++;
    const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    for (const w of words) bump(this.words, w);
    for (const p of parts) bump(this.parts, p);
    for (const w of words) for (const p of parts) if (crudeStem(p) !== w) bump(this.pairs, `${w} ${p}`);
  }

  /** Whether the repository already names things by `w` (its stem is a part of documented names in NAMED_SHARE of its doc blocks' count): the word needs no link. */
  private named(w: string, cw: number): boolean {
    if (!this.byStem) {
      this.byStem = new Map();
      for (const [p, n] of this.parts) this.byStem.set(crudeStem(p), (this.byStem.get(crudeStem(p)) ?? 0) + n);
    }
    return (this.byStem.get(w) ?? 0) >= NAMED_SHARE * cw;
  }
  private byStem?: Map<string, number>;

  /** The association: per word, its best name parts by normalised PMI. */
  learned(): LearnedTerms {
    const n = this.blocks;
    const byWord = new Map<string, Array<[string, number]>>();
    if (n < MIN_WORD) return byWord;
    for (const [key, c] of this.pairs) {
      if (c < MIN_PAIR) continue;
      const sp = key.indexOf(' ');
      const w = key.slice(0, sp);
      const p = key.slice(sp + 1);
      const cw = this.words.get(w)!;
      const cp = this.parts.get(p)!;
      if (cw < MIN_WORD || this.named(w, cw)) continue;
      const pxy = c / n;
      const npmi = pxy >= 1 ? 1 : Math.log(pxy / ((cw / n) * (cp / n))) / -Math.log(pxy);
      if (npmi < KEEP_FLOOR) continue;
      let list = byWord.get(w);
      if (!list) byWord.set(w, (list = []));
      list.push([p, Math.round(npmi * 100) / 100]);
    }
    for (const [w, list] of byWord) byWord.set(w, list.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, KEEP));
    return byWord;
  }
}

/** The table holding the association of one index generation (JSON text: [word, [[part, npmi], …]][]). */
export const LEARNED_TERMS_TABLE = 'learned_terms';

/** The languages whose comments document members: code with C-style comments (`///`, `/** */`, `//`), not stylesheets; markup and configs are not read. */
const DOCUMENTED = LANGUAGES.filter((l) => l.code && !l.stylesheet && l.comments?.some((c) => c === 'c' || c === 'razor')).map((l) => l.id);

/** Learns the association from every stored source file of `db` (outline and text). */
export function learnTerms(db: Database, codec: DeflateCodec): LearnedTerms {
  const counter = new PairCounter();
  const ids = db.selectArrays(`SELECT id FROM files WHERE lang IN (${DOCUMENTED.map((l) => `'${l}'`).join(', ')}) ORDER BY id`) as unknown[][];
  for (const [id] of ids) {
    const f = readStoredFile(db, Number(id), codec);
    if (f && f.outline.length) counter.addFile(f.lines, f.outline);
  }
  return counter.learned();
}

/** Records the association for `db`'s current generation, unless that generation's is there already (the indexer, last transaction of a whole-tree pass). */
export function recordLearnedTerms(db: Database, codec: DeflateCodec): void {
  if (recordIsCurrent(db, LEARNED_TERMS_TABLE)) return;
  writeRecord(db, LEARNED_TERMS_TABLE, JSON.stringify([...learnTerms(db, codec)]));
}

/** The association recorded for the current generation, else learned now (a search's first need of it; not written: searches only read). */
export function learnedTermsOf(db: Database, codec: DeflateCodec): LearnedTerms {
  const json = readRecord(db, LEARNED_TERMS_TABLE, codec);
  return json === null ? learnTerms(db, codec) : new Map(JSON.parse(json) as Array<[string, Array<[string, number]>]>);
}

export interface LearnedOptions {
  /** Terms per question word at most (0: off). */
  perWord: number;
  /** Their BM25's weight beside the question's own words'. */
  weight: number;
  /** The least normalised PMI a term needs. */
  floor: number;
  /** Whether the index names things by a query word rarely enough to expand it (a word the code says often needs no synonym). */
  rare: (token: string) => boolean;
}

/**
 * A question's learned terms, or undefined when it is not expanded: only a question (no identifier
 * among its words), only its plain word clauses, never a part the question already says.
 */
export function learnedExpansion(q: ParsedQuery, learned: LearnedTerms, o: LearnedOptions): NeighbourExpansion | undefined {
  if (o.perWord <= 0 || o.weight <= 0 || q.text || queryType(q) !== 'question') return undefined;
  const own = new Set<string>();
  for (const c of q.clauses) {
    if (c.kind === 'word') own.add(crudeStem(c.token));
    else if (c.kind === 'phrase') c.tokens.forEach((t) => own.add(crudeStem(t)));
  }
  const terms: NeighbourTerm[] = [];
  const taken = new Set<string>();
  for (const c of q.clauses) {
    if (c.kind !== 'word' || c.prefix || c.parts.length) continue;
    const links = learned.get(crudeStem(c.token));
    if (!links?.length || links[0][1] < o.floor || !o.rare(c.token)) continue;
    let n = 0;
    for (const [part, npmi] of links) {
      if (n >= o.perWord || npmi < o.floor) break;
      if (own.has(crudeStem(part)) || taken.has(part)) continue;
      taken.add(part);
      terms.push({ from: c.token, token: part, cosine: npmi });
      n++;
    }
  }
  return terms.length ? { weight: o.weight, terms, source: 'repository' } : undefined;
}
