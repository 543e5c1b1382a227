// Example queries for the start screen, taken from the open index (never the bundled sample's): a
// type named by a file (the most common identifier part among the code files' names, in the file
// that holds it and has the most lines), that part as a word, a route (@page, [Route], [HttpGet],
// Map*), a key of a settings file (its outline), and a word under the folder with the most code
// files. Each comes from a call the Worker answers (files, search in regex mode, outline); an
// example whose source the workspace lacks is left out, and a hosted index (read over HTTP) has no
// route example (its regex search would read the whole index). Chosen once per index generation and
// kept in the page's storage (localStorage, per workspace), so reopening the workspace asks the Worker
// nothing for them: the route's regex search reads every chunk's text (~0.1–0.3 s of the Worker on
// FluentAvalonia), and after a reload it ran under the first keystrokes. Owns choosing them; StartHere draws them.
import type { FileEntry, OutlineSymbol } from '../../../core/contract/index.ts';
import type { BrowserWorkspace } from '../../../runtimes/browser/client.ts';
import { splitIdentifier } from '../../../core/text/analyzer.ts';
import { loadFiles } from '../app/file-list.ts';
import type { QueryMode } from '../app/state.ts';

export interface Example {
  q: string;
  mode: QueryMode;
  /** What it shows (a type, a word, a route…). */
  what: string;
}

let cache: { key: string; list: Promise<Example[]> } | null = null;

const CODE = new Set(['csharp', 'razor', 'typescript', 'tsx', 'javascript', 'jsx', 'axaml', 'xaml']);
const ROUTE = String.raw`@page\s+"[^"]+"|\[(?:Route|Http(?:Get|Post|Put|Delete|Patch))\("[^"]+"|\.Map(?:Get|Post|Put|Delete|Patch)\("[^"]+"`;
const SETTINGS = /(^|\/)(appsettings[^/]*\.json|[^/]*settings[^/]*\.(json|ya?ml|toml))$/i;
const DULL_KEYS = /^(Logging|LogLevel|Default|AllowedHosts|Microsoft.*|System.*|\$schema)$/;

const stem = (p: string) => p.slice(p.lastIndexOf('/') + 1).replace(/\..*$/, '');

function typeAndWord(files: FileEntry[]): Example[] {
  const code = files.filter((f) => CODE.has(f.lang) && !f.kinds?.includes('test') && !f.kinds?.includes('generated'));
  const parts = new Map<string, number>();
  for (const f of code) for (const p of new Set(splitIdentifier(stem(f.path)))) if (p.length >= 4) parts.set(p, (parts.get(p) ?? 0) + 1);
  const top = [...parts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  if (!top) return [];
  const holder = code.filter((f) => splitIdentifier(stem(f.path)).includes(top[0]) && /^[A-Za-z_]\w+$/.test(stem(f.path))).sort((a, b) => b.lines - a.lines)[0];
  const out: Example[] = [];
  if (holder) out.push({ q: stem(holder.path), mode: 'keyword', what: 'a type' });
  out.push({ q: top[0], mode: 'keyword', what: `a word in ${top[1]} file names` });
  return out;
}

async function route(ws: BrowserWorkspace): Promise<Example[]> {
  const res = await ws.call('search', { query: ROUTE, mode: 'regex', limit: 3 });
  for (const h of res.hits) {
    const m = /"(\/?[^"\s]*[A-Za-z][^"\s]*)"/.exec(h.snippet.split('\n').find((l) => new RegExp(ROUTE).test(l)) ?? '');
    if (m) return [{ q: `"${m[1]}"`, mode: 'keyword', what: 'a route' }];
  }
  return [];
}

async function settingKey(ws: BrowserWorkspace, files: FileEntry[]): Promise<Example[]> {
  const f = files.filter((x) => SETTINGS.test(x.path)).sort((a, b) => a.path.length - b.path.length)[0];
  if (!f) return [];
  const o = await ws.call('outline', { path: f.path });
  const keys: string[] = [];
  const walk = (s: OutlineSymbol[], depth: number) => {
    for (const x of s) {
      const last = x.name.slice(x.name.lastIndexOf('.') + 1);
      if (depth >= 1 && !DULL_KEYS.test(last) && /^[A-Za-z_][\w]{5,}$/.test(last) && !DULL_KEYS.test(x.name.split('.')[0])) keys.push(last);
      walk(x.children ?? [], depth + 1);
    }
  };
  walk(o.symbols ?? [], 0);
  return keys.length ? [{ q: keys[0], mode: 'keyword', what: `a key of ${stem(f.path)}` }] : [];
}

function underFolder(files: FileEntry[], word: string | undefined): Example[] {
  const counts = new Map<string, number>();
  for (const f of files) {
    if (!CODE.has(f.lang)) continue;
    const segs = f.path.split('/');
    if (segs.length < 3) continue;
    const dir = `${segs.slice(0, 2).join('/')}/`;
    counts.set(dir, (counts.get(dir) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  return top && word ? [{ q: `path:${top[0]} ${word}`, mode: 'keyword', what: `under ${top[0]}` }] : [];
}

/** Examples were no longer wanted (typing began) before their costly call was sent. */
class Abandoned extends Error {}

async function choose(ws: BrowserWorkspace, wanted: () => boolean): Promise<Example[]> {
  const files = await loadFiles();
  if (!wanted()) throw new Abandoned('the start screen went before the examples were chosen');
  const first = typeAndWord(files);
  // No route from a hosted index: a regex search reads every chunk's text, which over HTTP is the
  // whole index (Avalonia's link downloaded 28.9 MB in 1,697 range requests before any query).
  const routes = ws.info.index ? Promise.resolve([]) : route(ws).catch(() => []);
  const more = await Promise.all([routes, settingKey(ws, files).catch(() => [])]);
  return [...first, ...more.flat(), ...underFolder(files, first[1]?.q)];
}

/** Where a workspace's examples are kept between page loads: one entry per workspace, for one index version. */
const STORED = (workspace: string) => `hci-examples:${workspace}`;

function stored(workspace: string, version: string): Example[] | null {
  try {
    const v = JSON.parse(localStorage.getItem(STORED(workspace)) ?? 'null') as { version: string; list: Example[] } | null;
    return v && v.version === version && Array.isArray(v.list) ? v.list : null;
  } catch {
    return null;
  }
}

function store(workspace: string, version: string, list: Example[]): void {
  try {
    localStorage.setItem(STORED(workspace), JSON.stringify({ version, list }));
  } catch {
    /* storage refused: chosen again next time */
  }
}

/**
 * The workspace's examples, chosen once per index version (`version`: its generation and when it was
 * indexed — a workspace removed and indexed anew under its name starts at the same generation) and
 * kept in memory and in localStorage; undefined: chosen now, kept in memory only. `wanted`: whether the start screen is still up — checked once the file list is in, before the regex
 * search for a route, which would make a keystroke typed meanwhile wait in the Worker; when it is
 * not, this rejects and the next call chooses again.
 */
export function examplesFor(ws: BrowserWorkspace, version: string | undefined, wanted: () => boolean = () => true): Promise<Example[]> {
  const key = `${ws.name}:${version ?? '?'}`;
  if (cache?.key !== key) {
    const kept = version === undefined ? null : stored(ws.name, version);
    const entry = { key, list: kept ? Promise.resolve(kept) : choose(ws, wanted) };
    cache = entry;
    entry.list.then(
      (list) => !kept && version !== undefined && store(ws.name, version, list),
      () => {
        if (cache === entry) cache = null;
      },
    );
  }
  return cache.list;
}
