// What the traceability engine knows of the code, read through the code index: per file its members
// (the stored outline, flattened: member key, kind, line range, depth), its current text (through the
// workspace's file source, for excerpts) and its size and mtime (drift fingerprints); member keys
// resolved across files (HciWorkspace.resolve). One view serves one rebuild or one find and caches per
// file. Matching anchors against it belongs to anchors.ts.
import { HciError } from '../platform.ts';
import type { HciWorkspace } from '../workspace.ts';
import type { OutlineSymbol, SymbolLocation } from '../search/symbols.ts';

export interface Member {
  key: string;
  kind: string;
  name: string;
  start: number;
  end: number;
  depth: number;
}

export interface FileView {
  path: string;
  exists: boolean;
  /** In the index (false: members is empty and only lines can match). */
  indexed: boolean;
  members: Member[];
  /** The current text by line (1-based line N is lines[N-1]); empty when missing; null when not asked for. */
  lines: string[] | null;
  /** Drift fingerprint: size in bytes and mtime in whole ms; -1/-1 when missing. */
  size: number;
  mtimeMs: number;
}

export interface CodeView {
  /** A file's members and fingerprint; with `text`, its current lines too. */
  file(path: string, opts?: { text?: boolean }): Promise<FileView>;
  /** Where a member key is now (every file that defines it). */
  locate(memberKey: string): Promise<SymbolLocation[]>;
  /** The index generation the answers came from (the lowest seen; asks the index when none was read yet). */
  indexGeneration(): Promise<number>;
}

export function flattenOutline(symbols: readonly OutlineSymbol[]): Member[] {
  const out: Member[] = [];
  const walk = (list: readonly OutlineSymbol[], depth: number) => {
    for (const s of list) {
      if (s.member_key) out.push({ key: s.member_key, kind: s.kind, name: s.name, start: s.start_line, end: s.end_line, depth });
      if (s.children) walk(s.children, depth + 1);
    }
  };
  walk(symbols, 0);
  return out;
}

/** The innermost member holding all of [start, end] (deepest, then shortest), or null. */
export function innermostMember(members: readonly Member[], start: number, end: number): Member | null {
  let best: Member | null = null;
  for (const m of members) {
    if (m.start > start || m.end < end) continue;
    if (!best || m.depth > best.depth || (m.depth === best.depth && m.end - m.start < best.end - best.start)) best = m;
  }
  return best;
}

function raise(error: { code: string; message: string } | undefined, hint: string | undefined): never {
  throw new HciError(error?.code ?? 'internal', error?.message ?? 'the index did not answer', hint);
}

/** A CodeView over an open workspace's index and files. */
export function workspaceCodeView(ws: HciWorkspace): CodeView {
  const files = new Map<string, Promise<FileView>>();
  let generation: number | null = null;
  const seen = (g: number | undefined) => {
    if (typeof g === 'number') generation = generation === null ? g : Math.min(generation, g);
  };
  const load = async (path: string): Promise<FileView> => {
    const [outline, st] = await Promise.all([ws.outline(path), ws.host.fs.stat(path).catch(() => null)]);
    if (outline.status === 'error' && outline.error?.code !== 'not_indexed') raise(outline.error, outline.hint);
    seen(outline.index?.generation);
    const exists = st?.kind === 'file';
    return {
      path, exists, indexed: outline.status === 'ok', members: outline.status === 'ok' ? flattenOutline(outline.symbols) : [], lines: null,
      size: exists ? st!.size : -1, mtimeMs: exists ? Math.trunc(st!.mtimeMs) : -1,
    };
  };
  const withText = async (fv: FileView): Promise<FileView> => {
    if (fv.lines === null) {
      const text = fv.exists ? new TextDecoder().decode(await ws.host.fs.readFile(fv.path)) : '';
      fv.lines = fv.exists ? text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) : [];
    }
    return fv;
  };
  return {
    async indexGeneration() {
      if (generation === null) {
        const st = await ws.status();
        if (!st.index) raise(st.error ?? { code: 'no_index', message: 'no index' }, st.hint);
        seen(st.index.generation);
      }
      return generation!;
    },
    async file(path: string, opts: { text?: boolean } = {}) {
      let p = files.get(path);
      if (!p) {
        p = load(path);
        files.set(path, p);
      }
      return opts.text ? withText(await p) : p;
    },
    async locate(memberKey: string) {
      const r = await ws.resolve({ member_key: memberKey });
      if (r.status === 'error') raise(r.error, r.hint);
      seen(r.index?.generation);
      return r.locations;
    },
  };
}
