// The name affixes a repository uses often, learned from its own index: a leading or trailing
// identifier part that many declared names share (`FA` in FluentAvalonia's `FATabView`, `Mud` in
// MudBlazor's `MudDataGrid`, `I` of interfaces, `Base`, `ViewModel`, `Async`). A query that names a
// type or member the way docs and people write it, without the affix (`TabView`, `ContentDialog`),
// then reaches the declaration that carries it (declarations.ts). Owns the learning (which names it
// reads, the thresholds) and matching a declared name against a query name up to one affix; the
// names are read once per index generation (the session's cache).
import type { Database } from '../sqlite/engine.ts';
import { nameStem } from '../scan/languages.ts';

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

/** Kinds of chunk symbols that declare a name (markup elements and packed chunks do not). */
const DECLARING = "'class','interface','record','struct','enum','delegate','method','property','event','function','type','component','page','view'";

/** Learns the affixes from names (see the thresholds above); `names` may repeat. */
export function learnAffixes(names: Iterable<string>): Affixes {
  const seen = new Set<string>();
  const pre = new Map<string, number>();
  const suf = new Map<string, number>();
  let n = 0;
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const parts = nameParts(name);
    if (parts.length < 2 || parts.join('') !== name) continue;
    n++;
    for (let k = 1; k <= MAX_AFFIX_PARTS && k < parts.length; k++) {
      const p = parts.slice(0, k).join('');
      const s = parts.slice(parts.length - k).join('');
      pre.set(p, (pre.get(p) ?? 0) + 1);
      suf.set(s, (suf.get(s) ?? 0) + 1);
    }
  }
  const min = Math.max(MIN_NAMES, Math.ceil(n * MIN_SHARE));
  const pick = (m: Map<string, number>) => [...m].filter(([, c]) => c >= min).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([a]) => a);
  return { prefixes: pick(pre), suffixes: pick(suf) };
}

/**
 * The names a repository declares, as the index holds them: its code files' names (the part before
 * the first dot: `FATabView.properties.cs` → FATabView) and its chunks' declared symbols.
 */
export function readDeclaredNames(db: Database): string[] {
  const out: string[] = [];
  // With lang, though unused: a packed index then answers this from the covering index declarations.ts's
  // file list reads too (files_by_lang), one read for both, instead of a second index of its own.
  for (const [path] of db.selectArrays('SELECT path, lang FROM files') as Array<[string, string]>) {
    const stem = nameStem(path);
    if (stem) out.push(stem);
  }
  for (const [name] of db.selectArrays(`SELECT symbol_name FROM chunks WHERE symbol_kind IN (${DECLARING}) LIMIT ${MAX_SYMBOLS}`) as Array<[string | null]>) {
    if (name) out.push(name);
  }
  return out;
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
