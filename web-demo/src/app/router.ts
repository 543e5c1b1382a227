// Permalinks: the app's place in the URL, so a reload or a shared link opens the same view.
//   ?q=<query>&ext=.cs,.razor&under=src/&hide=test,generated   the search (history.replaceState as you type)
//   &mode=literal|regex|hybrid|semantic&case=1&word=1           exact text or a regex, case, whole words; meaning
//   #/w/<workspace>                                             a workspace
//   #/w/<workspace>/f/<path>#L10-20                             a file, lines 10–20 marked
//   &why=<hit_id>                                               with "why this result" for that hit open
//   ?index=<url>                                                a hosted index (workspaces/hosted.ts)
// Owns parsing and writing that format; what the app does with a route is state.ts's.
import { SEARCH_MODES } from '../../../core/contract/limits.ts';
import type { QueryMode } from './state.ts';

export interface Route {
  workspace?: string;
  path?: string;
  lines?: [number, number];
  q: string;
  exts: string[];
  under: string;
  hide: Array<'test' | 'generated'>;
  /** Absent: keyword. */
  mode?: Exclude<QueryMode, 'keyword'>;
  caseSensitive?: boolean;
  wholeWord?: boolean;
  /** The hit whose "why this result" is open (with a file). */
  why?: string;
  /** A hosted index's URL (issue 36). */
  index?: string;
}

const enc = (s: string) => s.split('/').map(encodeURIComponent).join('/');
const dec = (s: string) => {
  try {
    return s.split('/').map(decodeURIComponent).join('/');
  } catch {
    return s;
  }
};

export function parseRoute(loc: { search: string; hash: string } = location): Route {
  const params = new URLSearchParams(loc.search);
  const route: Route = {
    q: params.get('q') ?? '',
    exts: (params.get('ext') ?? '').split(',').filter(Boolean),
    under: params.get('under') ?? '',
    hide: (params.get('hide') ?? '').split(',').filter((k): k is 'test' | 'generated' => k === 'test' || k === 'generated'),
  };
  const mode = params.get('mode');
  const known = SEARCH_MODES.find((m) => m === mode);
  if (known && known !== 'keyword') route.mode = known;
  if (params.get('case') === '1') route.caseSensitive = true;
  if (params.get('word') === '1') route.wholeWord = true;
  const why = params.get('why');
  if (why) route.why = why;
  const index = params.get('index');
  if (index) route.index = index;
  const m = /^#\/w\/([^/#]+)(?:\/f\/([^#]+))?(?:#L(\d+)(?:-(\d+))?)?$/.exec(loc.hash);
  if (m) {
    route.workspace = dec(m[1]);
    if (m[2]) route.path = dec(m[2]);
    if (m[3]) {
      const a = Number(m[3]);
      const b = m[4] ? Number(m[4]) : a;
      route.lines = [Math.min(a, b), Math.max(a, b)];
    }
  }
  return route;
}

export function formatRoute(r: Route): string {
  const params = new URLSearchParams();
  if (r.q) params.set('q', r.q);
  if (r.exts.length) params.set('ext', r.exts.join(','));
  if (r.under) params.set('under', r.under);
  if (r.hide.length) params.set('hide', r.hide.join(','));
  if (r.mode) params.set('mode', r.mode);
  if (r.mode && r.caseSensitive) params.set('case', '1');
  if (r.mode && r.wholeWord) params.set('word', '1');
  if (r.why && r.path) params.set('why', r.why);
  if (r.index) params.set('index', r.index);
  const search = params.toString();
  let hash = '';
  if (r.workspace) {
    hash = `#/w/${encodeURIComponent(r.workspace)}`;
    if (r.path) {
      hash += `/f/${enc(r.path)}`;
      if (r.lines) hash += r.lines[0] === r.lines[1] ? `#L${r.lines[0]}` : `#L${r.lines[0]}-${r.lines[1]}`;
    }
  }
  return `${location.pathname}${search ? `?${search}` : ''}${hash}`;
}

/** Writes the route into the URL: push for a new place (a file opened), replace while typing. */
export function writeRoute(r: Route, mode: 'push' | 'replace'): void {
  const url = formatRoute(r);
  if (r.workspace) rememberPlace(r.workspace, url);
  if (url === `${location.pathname}${location.search}${location.hash}`) return;
  if (mode === 'push') history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

const PLACES = 'hci-last-places';

/** The last place (URL) visited in each workspace, newest first: the workspaces screen offers to go back. */
export function lastPlaces(): Array<{ workspace: string; url: string }> {
  try {
    return (JSON.parse(localStorage.getItem(PLACES) ?? '[]') as Array<{ workspace: string; url: string }>).filter((p) => p && typeof p.url === 'string');
  } catch {
    return [];
  }
}

function rememberPlace(workspace: string, url: string): void {
  try {
    localStorage.setItem(PLACES, JSON.stringify([{ workspace, url }, ...lastPlaces().filter((p) => p.workspace !== workspace)].slice(0, 20)));
  } catch {
    /* storage refused: nothing to go back to */
  }
}
