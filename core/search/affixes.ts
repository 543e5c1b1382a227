// The name affixes a repository uses often, learned from its own index: a leading or trailing
// identifier part that many declared names share (`FA` in FluentAvalonia's `FATabView`, `Mud` in
// MudBlazor's `MudDataGrid`, `I` of interfaces, `Base`, `ViewModel`, `Async`). A query that names a
// type or member the way docs and people write it, without the affix (`TabView`, `ContentDialog`),
// then reaches the declaration that carries it (declarations.ts). Owns the learning (which names it
// reads, the thresholds) and matching a declared name against a query name up to one affix; the
// names are read once per index generation — by the indexer at the end of a whole-tree run, which
// records what it learned in meta for that generation (recordAffixes), else by the first search
// that needs them (the session's cache).
import type { Database } from '../sqlite/engine.ts';
import { nameStem } from '../scan/languages.ts';
import { setMeta } from '../index/meta.ts';

export interface Affixes {
  /** As written (`FA`, `Mud`, `I`), most used first. */
  prefixes: string[];
  suffixes: string[];
}

/** An affix must start at least this many names … */
const MIN_NAMES = 5;
/** … and at least this share of the names read (of those with two parts or more). */
const MIN_SHARE = 0.01;
/** At most this many parts make one affix (`ViewModel` is two). */
const MAX_AFFIX_PARTS = 2;
/** Chunk symbols read at most (a fixed bound on the first lookup's cost at any size). */
const MAX_SYMBOLS = 50_000;

/** Identifier parts as written: `FATabView` → FA Tab View, `IDialogService` → I Dialog Service. */
const PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+/gu;

export function nameParts(name: string): string[] {
  return name.match(PART) ?? [];
}

/** Kinds of chunk symbols that declare a name (markup elements and packed chunks do not), as an SQL list. */
export const DECLARING = "'class','interface','record','struct','enum','delegate','method','property','event','function','type','component','page','view'";

/** Learns the affixes from names (see the thresholds above); `names` may repeat. */
export function learnAffixes(names: Iterable<string>): Affixes {
  const seen = new Set<string>();
  const pre = new Map<string, number>();
  const suf = new Map<string, number>();
  let n = 0;
  const ends: number[] = [];
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    // Where each part ends (a name made of parts only: nameParts's parts joined give it back).
    if (!partEnds(name, ends) || ends.length < 2) continue;
    n++;
    const last = ends.length - 1;
    for (let k = 1; k <= MAX_AFFIX_PARTS && k < ends.length; k++) {
      const p = name.slice(0, ends[k - 1]);
      const s = name.slice(ends[last - k]);
      pre.set(p, (pre.get(p) ?? 0) + 1);
      suf.set(s, (suf.get(s) ?? 0) + 1);
    }
  }
  const min = Math.max(MIN_NAMES, Math.ceil(n * MIN_SHARE));
  const pick = (m: Map<string, number>) => [...m].filter(([, c]) => c >= min).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([a]) => a);
  return { prefixes: pick(pre), suffixes: pick(suf) };
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Fills `ends` with the end offset of each of the name's parts (nameParts) and says whether the
 * parts make up the whole name (false: a character no part holds, `_`, `.`, `-`). An ASCII name is
 * scanned by character codes — what PART matches on ASCII text, alternative by alternative (an
 * upper-case run before an upper-case letter that starts a word, an optional capital and lower-case
 * letters, an upper-case run, digits) — since the regex cost most of learning a repository's
 * affixes (tens of thousands of names, once per index generation); others run nameParts.
 */
export function partEnds(name: string, ends: number[]): boolean {
  ends.length = 0;
  const len = name.length;
  for (let i = 0; i < len; i++) {
    if (name.charCodeAt(i) > 0x7f) {
      let at = 0;
      for (const part of nameParts(name)) {
        if (name.startsWith(part, at)) ends.push((at += part.length));
        else return false;
      }
      return at === len;
    }
  }
  let i = 0;
  while (i < len) {
    const c = name.charCodeAt(i);
    let j = i + 1;
    if (isUpper(c)) {
      while (j < len && isUpper(name.charCodeAt(j))) j++;
      const lowerNext = j < len && isLower(name.charCodeAt(j));
      if (j - i >= 2 && lowerNext) j--; // an upper-case run up to the capital that starts the next word
      else if (lowerNext) while (j < len && isLower(name.charCodeAt(j))) j++; // a capital and its lower-case letters
      // else: the upper-case run
    } else if (isLower(c)) {
      while (j < len && isLower(name.charCodeAt(j))) j++;
    } else if (isDigit(c)) {
      while (j < len && isDigit(name.charCodeAt(j))) j++;
    } else return false;
    ends.push(j);
    i = j;
  }
  return true;
}

/**
 * The names a repository declares, as the index holds them: its code files' names (the part before
 * the first dot: `FATabView.properties.cs` → FATabView) and its chunks' declared symbols.
 */
export function readDeclaredNames(db: Database): string[] {
  const out: string[] = [];
  // Each list as one JSON array (SQLite builds it; one value crosses from WASM): reading the rows one
  // by one was most of a first search after opening a large index (Avalonia, 26k names: ~95 -> ~15 ms).
  // With lang, though unused: a packed index then answers this from the covering index declarations.ts's
  // file list reads too (files_by_lang), one read for both, instead of a second index of its own.
  for (const path of jsonColumn(db, 'path', 'SELECT path, lang FROM files')) {
    const stem = nameStem(path as string);
    if (stem) out.push(stem);
  }
  for (const name of jsonColumn(db, 'symbol_name', `SELECT symbol_name FROM chunks WHERE symbol_kind IN (${DECLARING}) LIMIT ${MAX_SYMBOLS}`)) {
    if (name) out.push(name);
  }
  return out;
}

/** One column of a query's rows, in row order (null for NULL), read as one JSON array. */
function jsonColumn(db: Database, column: string, sql: string): Array<string | null> {
  return JSON.parse(String(db.selectValue(`SELECT json_group_array(${column}) FROM (${sql})`) ?? '[]')) as Array<string | null>;
}

/**
 * The affix that makes `declared` out of `query` (`FA` for TabView → FATabView, `Async` for
 * GetItems → GetItemsAsync), matched by whole parts and ignoring case; null when none does.
 */
export function affixBetween(query: string, declared: string, affixes: Affixes): string | null {
  if (declared.length <= query.length) return null;
  const d = declared.toLowerCase();
  const q = query.toLowerCase();
  if (d.endsWith(q)) {
    const p = declared.slice(0, declared.length - query.length);
    if (affixes.prefixes.includes(p) && /^\p{Lu}|^\d/u.test(declared.slice(p.length))) return p;
  }
  if (d.startsWith(q)) {
    const s = declared.slice(query.length);
    if (affixes.suffixes.includes(s)) return s;
  }
  return null;
}

/** The meta key holding the affixes learned for one index generation (recordAffixes). */
export const AFFIXES_META = 'name_affixes';

const generationOf = (db: Database): string => String(db.selectValue("SELECT value FROM meta WHERE key = 'generation'") ?? '');

/**
 * Learns the index's affixes and records them in meta with the generation they describe, unless that
 * generation's are there already. The indexer calls it in the last transaction of a whole-tree run:
 * reading every declared name once per index write instead of once per opened index, where it was
 * most of a first search (a new `hci search` process on Avalonia: ~40% of its search). A later write
 * (a run over a few paths) leaves an older generation's record, which searches do not use.
 */
export function recordAffixes(db: Database): void {
  const generation = generationOf(db);
  if (recordedGeneration(db) === generation) return;
  const { prefixes, suffixes } = learnAffixes(readDeclaredNames(db));
  setMeta(db, { [AFFIXES_META]: JSON.stringify({ generation, prefixes, suffixes }) });
}

function recordedGeneration(db: Database): string | null {
  return recorded(db)?.generation ?? null;
}

function recorded(db: Database): (Affixes & { generation: string }) | null {
  const value = db.selectValue('SELECT value FROM meta WHERE key = ?', [AFFIXES_META]);
  if (typeof value !== 'string') return null;
  try {
    const r = JSON.parse(value) as Affixes & { generation: string };
    return typeof r.generation === 'string' && Array.isArray(r.prefixes) && Array.isArray(r.suffixes) ? r : null;
  } catch {
    return null;
  }
}

/** The index's affixes: those recorded for its current generation, else learned now from its names. */
export function indexAffixes(db: Database): Affixes {
  const r = recorded(db);
  if (r && r.generation === generationOf(db)) return { prefixes: r.prefixes, suffixes: r.suffixes };
  return learnAffixes(readDeclaredNames(db));
}
