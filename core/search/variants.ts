// Variants of one file: the translations of a resource (`Languages/de.json`, `fr.json`, `pl.json`
// beside `en.json`; `Strings.de.resx` beside `Strings.resx`) and the per-version copies of a docs
// page (`versioned_docs/version-3.0.1/x.mdx` beside `docs/x.mdx`). They hold the same keys or the
// same text, so a query that matches one matches them all and a page of them says one thing five
// times. With setting collapse_variants, rerank lists a group of variants as one file (file-tiers.ts:
// the others follow as a file's further chunks do, factor `variant_of_listed`) led by its canonical
// variant — the file without a locale (else English), the current docs page — raised to the group's
// best score when it is a candidate (factor `canonical_variant`): the source an agent edits first.
// Owns finding the groups from the index's paths — worked out by the indexer in the last transaction
// of every whole-tree pass and recorded for that generation (recordVariantGroups), else by the first
// search that needs them (SearchSession.variantGroups) — and their record; the factors are
// rerank.ts's and file-tiers.ts's.
import type { Database } from '../sqlite/engine.ts';
import { extensionOf } from '../scan/languages.ts';
import type { DeflateCodec } from '../index/file-data.ts';
import { deflateRecord, readRecord, recordIsCurrent, writeRecord } from '../index/generation-record.ts';

/** ISO 639-1 language codes: a file stem (or its last dotted part) that is one, in a folder of several, is a translation. */
const LANGUAGES = new Set(
  ('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et ' +
    'eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl ' +
    'km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj ' +
    'om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to ' +
    'tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '),
);
/** A locale: a language code, then optionally a script (`Hans`), a region (`BR`, `419`) or both, joined by `-` or `_`. */
const LOCALE = /^([a-z]{2})(?:[-_](?:[A-Za-z][a-z]{3}))?(?:[-_](?:[A-Za-z]{2}|\d{3}))?$/;
/** A folder is a folder of translations when at least this many of one file's locale variants are in it. */
const MIN_LOCALES = 3;
/** A docs page's version folder: `version-3.0.1`, `v2.10`, `2.10.1`. */
const VERSION_SEGMENT = /^(?:v|version[-_]?)?\d+(?:\.\d+)+(?:\.x)?$/i;

export interface Variant {
  /** The group: files with one key are variants of one another. */
  key: string;
  /** The variant that stands for the group (no locale or English; the current docs page). */
  canonical: boolean;
}

function localeOf(part: string): string | null {
  const m = LOCALE.exec(part);
  return m && LANGUAGES.has(m[1]) ? part : null;
}

/** Whether a locale is English (`en`, `en-US`, `en_GB`). */
const isEnglish = (locale: string) => /^en(?:$|[-_])/.test(locale);

/**
 * The variant groups among `paths` (the index's files): a map from path to its group, for the files
 * that belong to one. A group of translations needs MIN_LOCALES locale variants of one name in one
 * folder; its canonical variant is the name without a locale, else `en`, else the first English one.
 * A docs page under `versioned_docs/<version>/` (or any version folder under a docs folder) groups
 * with its other versions and with the current page (`docs/…`), which is canonical.
 */
export function variantGroups(paths: readonly string[]): Map<string, Variant> {
  const out = new Map<string, Variant>();
  // Translations: key `dir/base{locale}ext` → the paths by locale ('' for none). Most repositories
  // have none: the files without a locale are keyed (second pass) only when some key has enough
  // locales — keying all of them was most of this function's cost, paid by a first search.
  const byName = new Map<string, Map<string, string>>();
  for (const path of paths) {
    const n = nameParts(path);
    if (!n.locale) continue;
    const key = `${n.dir}${n.base}{locale}${n.ext}`;
    let m = byName.get(key);
    if (!m) byName.set(key, (m = new Map()));
    m.set(n.locale, path);
  }
  const groups = [...byName].filter(([, locales]) => locales.size >= MIN_LOCALES);
  if (groups.length) {
    const keys = new Set(groups.map(([key]) => key));
    // (The last path of a key wins, as for the locales.)
    const plain = new Map<string, string>();
    for (const path of paths) {
      const n = nameParts(path);
      if (n.locale || !n.stem) continue;
      const key = `${n.dir}${n.stem}.{locale}${n.ext}`;
      if (keys.has(key)) plain.set(key, path);
    }
    for (const [key, locales] of groups) {
      const none = plain.get(key);
      const english = locales.get('en') ?? [...locales].find(([l]) => isEnglish(l))?.[1];
      const canonical = none ?? english;
      for (const path of locales.values()) out.set(path, { key, canonical: path === canonical });
      if (none) out.set(none, { key, canonical: true });
    }
  }
  // Versioned docs: the path with its version folder taken out (`versioned_docs/version-X/` → `docs/`).
  // (Only a path with a docs folder followed by another folder can hold one: the others are not split.)
  const versioned = new Map<string, string[]>();
  for (const path of paths) {
    if (!DOCS_FOLDER.test(path)) continue;
    const segs = path.split('/');
    const at = segs.findIndex((s, i) => i < segs.length - 1 && VERSION_SEGMENT.test(s) && (i > 0 && /^(?:versioned_)?docs$|^version-overrides$/i.test(segs[i - 1])));
    if (at < 0) continue;
    const parent = segs[at - 1].replace(/^versioned_/i, '');
    const key = [...segs.slice(0, at - 1), parent, ...segs.slice(at + 1)].join('/');
    let list = versioned.get(key);
    if (!list) versioned.set(key, (list = []));
    list.push(path);
  }
  if (!versioned.size) return out;
  const all = new Set(paths);
  for (const [key, list] of versioned) {
    const current = all.has(key) ? key : null;
    if (list.length + (current ? 1 : 0) < 2) continue;
    for (const path of list) if (!out.has(path)) out.set(path, { key: `v:${key}`, canonical: false });
    if (current && !out.has(current)) out.set(current, { key: `v:${key}`, canonical: true });
  }
  return out;
}

/** A folder named docs, versioned_docs or version-overrides with more below it: where a version folder can be. */
const DOCS_FOLDER = /(?:^|\/)(?:(?:versioned_)?docs|version-overrides)\//i;

/** A path's folder (with its '/'), its name's stem without the extension, the part before the last dotted part, the extension, and the locale the stem's last dotted part (or whole stem) is. */
function nameParts(path: string): { dir: string; stem: string; base: string; ext: string; locale: string | null } {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const ext = extensionOf(name);
  const stem = ext ? name.slice(0, -ext.length) : name;
  const dot = stem.lastIndexOf('.');
  const base = dot >= 0 ? stem.slice(0, dot + 1) : '';
  return { dir, stem, base, ext, locale: localeOf(dot >= 0 ? stem.slice(dot + 1) : stem) };
}

/** The table holding the variant groups of one index generation (recordVariantGroups), as JSON text (deflating Humanizer's ~2,500 grouped paths, ~250 KB, cost a pass more than it saved a search), deflated in a pack (packVariantGroups). */
export const VARIANT_GROUPS_TABLE = 'variant_groups';

/** The record: each grouped path with its key and 1 for the canonical variant, in the groups' order. */
type VariantRows = Array<[string, string, 0 | 1]>;

/**
 * Records the variant groups of `db`'s files (`paths()`, called only when needed) for its current
 * generation, unless that generation's are there already. The indexer calls it in the last
 * transaction of every whole-tree pass: finding them reads every path (~2 ms of a first search on Avalonia's
 * 4.8k files, most of which hold no locale). A later write that does not record them (a pass over
 * some paths, a vector fill, a compaction) leaves an older generation's record, which searches do not use. The table is made
 * once and its row replaced (no schema change on later passes).
 */
export function recordVariantGroups(db: Database, paths: () => readonly string[]): void {
  if (recordIsCurrent(db, VARIANT_GROUPS_TABLE)) return;
  const rows: VariantRows = [];
  for (const [path, v] of variantGroups(paths())) rows.push([path, v.key, v.canonical ? 1 : 0]);
  writeRecord(db, VARIANT_GROUPS_TABLE, JSON.stringify(rows));
}

/** The variant groups recorded for `db`'s current generation (recordVariantGroups), else null (none, or an older generation's). */
export function recordedVariantGroups(db: Database, codec: DeflateCodec): Map<string, Variant> | null {
  // JSON text as an indexing pass wrote it, deflated in a pack (packVariantGroups).
  const json = readRecord(db, VARIANT_GROUPS_TABLE, codec);
  if (json === null) return null;
  const rows = JSON.parse(json) as VariantRows;
  return new Map(rows.map(([path, key, canonical]) => [path, { key, canonical: canonical === 1 }]));
}

/** Deflates the record in a pack (core/index/pack.ts, inside its transaction): a remote reader fetches its bytes (Humanizer: ~250 KB of JSON). */
export function packVariantGroups(db: Database, codec: DeflateCodec): void {
  deflateRecord(db, VARIANT_GROUPS_TABLE, codec);
}
