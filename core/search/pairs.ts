// Files that belong together: a Razor component and its code-behind and scoped styles, an AXAML/XAML
// view and its code-behind. Found by file-name convention and, for views, by matching `x:Class` (the
// view's outline key) to a C# type's member key. Owns the pairing rules only.
import type { Database } from '../sqlite/engine.ts';
import { walkOutline, type DeflateCodec } from '../index/file-data.ts';
import { fileInfo, filesWithKey, readOutline, type OutlineSymbol } from './symbols.ts';

export interface PairedFile {
  path: string;
  /** code_behind | scoped_css | markup (the view or component a code-behind belongs to) */
  relation: 'code_behind' | 'scoped_css' | 'markup';
}

const MARKUP = /\.(razor|cshtml|axaml|xaml)$/i;
const CODE_BEHIND = /\.(razor|cshtml|axaml|xaml)\.cs$/i;
const SCOPED_CSS = /\.(razor|cshtml)\.css$/i;
const VIEW_LANGS = new Set(['axaml', 'xaml', 'razor']);
const TYPE_KINDS = new Set(['class', 'record', 'record_struct', 'struct', 'interface']);

/** Pairs by name only (no index lookups beyond existence): cheap enough for every search hit. */
export function conventionalPairs(path: string): PairedFile[] {
  if (MARKUP.test(path)) {
    const out: PairedFile[] = [{ path: `${path}.cs`, relation: 'code_behind' }];
    if (/\.(razor|cshtml)$/i.test(path)) out.push({ path: `${path}.css`, relation: 'scoped_css' });
    return out;
  }
  if (CODE_BEHIND.test(path) || SCOPED_CSS.test(path)) {
    const markup = path.replace(/\.(cs|css)$/i, '');
    const out: PairedFile[] = [{ path: markup, relation: 'markup' }];
    if (SCOPED_CSS.test(path)) out.push({ path: `${markup}.cs`, relation: 'code_behind' });
    else if (/\.(razor|cshtml)\.cs$/i.test(path)) out.push({ path: `${markup}.css`, relation: 'scoped_css' });
    return out;
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
  const isMarkup = MARKUP.test(path);
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
        if (isMarkup ? other.lang !== 'csharp' : !VIEW_LANGS.has(other.lang)) continue;
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

/** For many hits at once: conventional pairs that exist, by hit path. */
export function conventionalPairsFor(db: Database, paths: string[]): Map<string, PairedFile[]> {
  const all = paths.flatMap((p) => conventionalPairs(p));
  const have = new Set(existing(db, all).map((f) => f.path));
  return new Map(paths.map((p) => [p, conventionalPairs(p).filter((c) => have.has(c.path))]));
}
