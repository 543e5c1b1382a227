// Files that belong together: a Razor component and its code-behind and scoped styles, an AXAML/XAML
// view and its code-behind. Found by file-name convention (the language table's `companions`:
// `Page.razor` ↔ `Page.razor.cs` ↔ `Page.razor.css`, `View.axaml` ↔ `View.axaml.cs`) and, for views,
// by matching `x:Class` (the view's outline key) to a C# type's member key. Owns the pairing rules
// only (and MVVM naming: a view ↔ its view model); which languages are views with which companions
// is the table's (core/languages/table.ts).
import type { Database } from '../sqlite/engine.ts';
import { walkOutline, type DeflateCodec } from '../index/file-data.ts';
import { LANGUAGES, languageById, type LanguageRow } from '../languages/table.ts';
import { languageOf } from '../scan/languages.ts';
import { fileInfo, filesWithKey, readOutline, type OutlineSymbol } from './symbols.ts';

export interface PairedFile {
  path: string;
  /** code_behind | scoped_css | markup (the view or component a code-behind belongs to) */
  relation: 'code_behind' | 'scoped_css' | 'markup';
}

type Companion = [suffix: string, relation: 'code_behind' | 'scoped_css'];

const TYPE_KINDS = new Set(['class', 'record', 'record_struct', 'struct', 'interface']);
/** Every companion suffix any view has (`.cs`, `.css`). */
const SUFFIXES = [...new Set(LANGUAGES.flatMap((r) => companionsOf(r).map(([suffix]) => suffix)))];

function companionsOf(row: LanguageRow | undefined): Companion[] {
  const c = row?.companions;
  if (!c) return [];
  return c.scopedCss ? [[c.codeBehind, 'code_behind'], [c.scopedCss, 'scoped_css']] : [[c.codeBehind, 'code_behind']];
}

/** The row of a view (a language with companions), or undefined. */
function viewRow(path: string): LanguageRow | undefined {
  const row = languageById(languageOf(path));
  return row?.companions ? row : undefined;
}

/** Pairs by name only (no index lookups beyond existence): cheap enough for every search hit. */
export function conventionalPairs(path: string): PairedFile[] {
  const view = viewRow(path);
  if (view) return companionsOf(view).map(([suffix, relation]) => ({ path: `${path}${suffix}`, relation }));
  const lower = path.toLowerCase();
  for (const suffix of SUFFIXES) {
    if (!lower.endsWith(suffix)) continue;
    const markup = path.slice(0, -suffix.length);
    const own = companionsOf(viewRow(markup));
    if (!own.some(([s]) => s === suffix)) continue;
    return [{ path: markup, relation: 'markup' }, ...own.filter(([s]) => s !== suffix).map(([s, relation]) => ({ path: `${markup}${s}`, relation }))];
  }
  return [];
}

/** Keeps the candidates that are in the index. */
function existing(db: Database, candidates: PairedFile[]): PairedFile[] {
  if (!candidates.length) return [];
  const have = new Set(
    db.selectValues(`SELECT path FROM files WHERE path IN (${candidates.map(() => '?').join(',')})`, candidates.map((c) => c.path)) as string[],
  );
  return candidates.filter((c) => have.has(c.path));
}

/** Paired files of one indexed file: by name, then by x:Class ↔ C# type key through the outlines. */
export function pairedFiles(db: Database, path: string, codec: DeflateCodec): PairedFile[] {
  const found = existing(db, conventionalPairs(path));
  const seen = new Set([path, ...found.map((f) => f.path)]);
  const view = viewRow(path);
  const isMarkup = view !== undefined;
  const codeBehindLang = view ? languageOf(`${path}${view.companions!.codeBehind}`) : null;
  // A view's x:Class is its root key; a code-behind's candidates are its type-level keys. Match one
  // against the other.
  const file = fileInfo(db, path);
  const rows: Array<{ path: string }> = [];
  if (file) {
    const outlines = new Map<number, OutlineSymbol[]>(); // each candidate inflated once, whatever the number of keys
    const outlineOf = (id: number) => outlines.get(id) ?? outlines.set(id, readOutline(db, id, codec)).get(id)!;
    const keys = new Set<string>();
    for (const { symbol, depth } of walkOutline(readOutline(db, file.id, codec))) {
      if (symbol.member_key && (depth === 0 || (!isMarkup && TYPE_KINDS.has(symbol.kind)))) keys.add(symbol.member_key);
    }
    for (const key of keys) {
      for (const other of filesWithKey(db, key)) {
        if (other.id === file.id) continue;
        if (isMarkup ? other.lang !== codeBehindLang : !languageById(other.lang)?.companions) continue;
        // The words matched: confirm the key itself in the other file's outline.
        const confirmed = [...walkOutline(outlineOf(other.id))].some((e) => e.symbol.member_key === key && (isMarkup || e.depth === 0));
        if (confirmed) rows.push({ path: other.path });
      }
    }
    rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  for (const r of rows) {
    if (seen.has(r.path)) continue;
    seen.add(r.path);
    found.push({ path: r.path, relation: isMarkup ? 'code_behind' : 'markup' });
  }
  return found;
}

/**
 * For many hits at once: conventional pairs that exist, by hit path. `indexed`: the index's paths
 * (SearchSession.indexedPaths: a remote search's file list) — no lookup of its own: over HTTP a path
 * lookup was a descent of the files' path index, a request per level, for every page of hits.
 */
export function conventionalPairsFor(indexed: { has(path: string): boolean }, paths: string[]): Map<string, PairedFile[]> {
  return new Map(paths.map((p) => [p, conventionalPairs(p).filter((c) => indexed.has(c.path))]));
}

/**
 * The view model a view is paired with by MVVM naming: `SettingsPage.axaml` → `SettingsPageViewModel`
 * or `SettingsViewModel`, `MainView.axaml` → `MainViewModel` (file stems, lowercase). Empty for files
 * that are not views.
 */
export function viewModelNames(path: string): string[] {
  const view = viewRow(path);
  if (!view) return [];
  const name = path.slice(path.lastIndexOf('/') + 1);
  const stem = name.slice(0, name.indexOf('.') > 0 ? name.indexOf('.') : name.length);
  const out = [`${stem}ViewModel`];
  if (/View$/.test(stem)) out.push(`${stem}Model`);
  if (/Page$/.test(stem)) out.push(`${stem.slice(0, -4)}ViewModel`);
  return out.map((s) => s.toLowerCase());
}
