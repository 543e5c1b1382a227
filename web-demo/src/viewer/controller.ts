// The file on screen: opening a file (from a hit, the outline, a paired file, Ctrl-P, a permalink),
// loading its indexed text and outline from the Worker (core/service file and outline), marking lines,
// "why this result" (explain, kept in the permalink as &why=<hit_id>) and go to definition (resolve by name). Owns these flows and the URL's
// #/w/<workspace>/f/<path>#L… part; drawing is Viewer.tsx.
import { batch, signal } from '@preact/signals';
import type { ExplainResponse, FileResponse, OutlineResponse, SymbolLocation } from '../../../core/contract/index.ts';
import { current, filters, notice, query, view } from '../app/state.ts';
import { parseRoute, writeRoute } from '../app/router.ts';

export const file = signal<FileResponse | null>(null);
export const outline = signal<OutlineResponse | null>(null);
export const explanation = signal<ExplainResponse | null>(null);
export const definitions = signal<{ name: string; locations: SymbolLocation[] } | null>(null);

let loadSeq = 0;

function route(path?: string, lines?: [number, number]) {
  const why = path && explanation.value && view.value?.hitId ? view.value.hitId : undefined;
  return { ...parseRoute(), workspace: current.value?.name, index: current.value?.info.index, path, lines, why, q: query.value, exts: filters.value.exts, under: filters.value.under, hide: filters.value.hide };
}

export async function openFile(path: string, opts: { lines?: [number, number]; hitId?: string; history?: 'push' | 'replace' } = {}): Promise<void> {
  const ws = current.value;
  if (!ws) return;
  const same = view.value?.path === path;
  batch(() => {
    view.value = { path, lines: opts.lines, hitId: opts.hitId };
    explanation.value = null;
    definitions.value = null;
  });
  writeRoute(route(path, opts.lines), opts.history ?? 'push');
  if (same && file.value?.path === path) return;
  const seq = ++loadSeq;
  const [f, o] = await Promise.all([ws.call('file', { path }), ws.call('outline', { path })]);
  if (seq !== loadSeq) return;
  batch(() => {
    file.value = f;
    outline.value = o;
  });
}

export function selectLines(lines: [number, number]): void {
  const v = view.value;
  if (!v) return;
  view.value = { ...v, lines };
  writeRoute(route(v.path, lines), 'replace');
}

export function closeViewer(writeUrl = true): void {
  if (!view.value) return;
  batch(() => {
    view.value = null;
    file.value = null;
    outline.value = null;
    explanation.value = null;
  });
  if (writeUrl) writeRoute(route(), 'push');
}

export async function explainHit(): Promise<void> {
  const ws = current.value;
  const hitId = view.value?.hitId;
  if (!ws || !hitId) return;
  explanation.value = await ws.call('explain', { hit_id: hitId, query: query.value });
  // The permalink holds it (&why=…), so a shared link opens with the same explanation.
  if (view.value?.hitId === hitId) writeRoute(route(view.value.path, view.value.lines), 'replace');
}

export function closeExplain(): void {
  explanation.value = null;
  const v = view.value;
  if (v) writeRoute(route(v.path, v.lines), 'replace');
}

const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'record', 'record_struct', 'enum', 'delegate']);
const MEMBER_KINDS = new Set(['method', 'property', 'constructor', 'field', 'event', 'indexer', 'operator', 'enum_member']);

/** Where `name` is defined: one place opens at once, several are listed to choose from. */
export async function goToDefinition(name: string): Promise<void> {
  const ws = current.value;
  if (!ws || !/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) return;
  const res = await ws.call('resolve', { name });
  if (res.status === 'error') {
    notice.value = { kind: 'error', text: res.error?.message ?? 'resolve failed', hint: res.hint };
    return;
  }
  // Types and members first, then the rest; the file on screen first among equals.
  const here = view.value?.path;
  const rank = (l: SymbolLocation) => (TYPE_KINDS.has(l.kind) ? 0 : MEMBER_KINDS.has(l.kind) ? 1 : 2);
  const locations = [...res.locations].sort((a, b) => rank(a) - rank(b) || Number(b.path === here) - Number(a.path === here) || (a.path < b.path ? -1 : 1));
  // One place, or exactly one type of that name (its constructors and the markup naming it aside): go there at once.
  const types = locations.filter((l) => rank(l) === 0);
  if (locations.length === 1 || types.length === 1) {
    const l = types[0] ?? locations[0];
    await openFile(l.path, { lines: [l.start_line, l.end_line] });
    return;
  }
  definitions.value = { name, locations };
  if (!locations.length) notice.value = { kind: 'info', text: `no definition of ${name} in the index`, hint: res.hint };
}
