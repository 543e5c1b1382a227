// The file tree of the workspace (role="tree"): folders a level at a time from the tree verb (core
// browse/tree.ts: subfolders with the number of indexed files below them, then the folder's own
// files), opened on demand; a filter over the index's file list (app/file-list.ts) shows the
// matching files under their folders, all open. Keyboard as the ARIA tree pattern: ↑/↓ move, → opens
// a folder or steps into it, ← closes it or steps out to its parent, Home/End, Enter opens a file
// (Enter/Space toggles a folder); one item is in the tab order. The file on screen is marked.
// Owns this view; opening a file is viewer/controller.ts's.
import { signal } from '@preact/signals';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { FileEntry, TreeResponse } from '../../../core/contract/index.ts';
import { current, status, view } from '../app/state.ts';
import { loadFiles } from '../app/file-list.ts';
import { openFile } from '../viewer/controller.ts';

interface Row {
  path: string;
  name: string;
  level: number;
  folder: boolean;
  /** Folder: indexed files below it; file: its lines. */
  count: number;
  lang?: string;
  expanded?: boolean;
}

/** Listings by folder, for the workspace and index generation they were read from. */
const listings = signal<{ key: string; byFolder: Map<string, TreeResponse> }>({ key: '', byFolder: new Map() });
const expanded = signal<Set<string>>(new Set(['']));

function cacheKey(): string {
  return `${current.value?.name}:${status.value?.index?.generation ?? '?'}`;
}

async function list(folder: string): Promise<void> {
  const ws = current.value;
  if (!ws) return;
  const key = cacheKey();
  if (listings.value.key === key && listings.value.byFolder.has(folder)) return;
  const res = await ws.call('tree', { folder });
  const base = listings.value.key === key ? listings.value.byFolder : new Map<string, TreeResponse>();
  listings.value = { key, byFolder: new Map(base).set(folder, res) };
}

function toggle(folder: string, open?: boolean): void {
  const next = new Set(expanded.value);
  const now = open ?? !next.has(folder);
  if (now) {
    next.add(folder);
    void list(folder);
  } else next.delete(folder);
  expanded.value = next;
}

/** The rows on screen: the open folders' listings, depth first. */
function browseRows(byFolder: Map<string, TreeResponse>, open: Set<string>): Row[] {
  const rows: Row[] = [];
  const walk = (folder: string, level: number) => {
    const l = byFolder.get(folder);
    if (!l) return;
    for (const f of l.folders) {
      const isOpen = open.has(f.path);
      rows.push({ path: f.path, name: f.name, level, folder: true, count: f.files, expanded: isOpen });
      if (isOpen) walk(f.path, level + 1);
    }
    for (const f of l.files) rows.push({ path: f.path, name: f.path.slice(folder.length), level, folder: false, count: f.lines, lang: f.lang });
  };
  walk('', 1);
  return rows;
}

/** The rows for a filter: every file whose path holds it (case-insensitive), under its folders. */
function filteredRows(files: FileEntry[], filter: string): Row[] {
  const f = filter.toLowerCase();
  const hits = files.filter((x) => x.path.toLowerCase().includes(f)).slice(0, 2000);
  const rows: Row[] = [];
  const counts = new Map<string, number>();
  for (const h of hits) {
    const segs = h.path.split('/');
    for (let i = 1; i < segs.length; i++) {
      const dir = `${segs.slice(0, i).join('/')}/`;
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
  }
  let prev: string[] = [];
  for (const h of hits.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const segs = h.path.split('/');
    let i = 0;
    while (i < segs.length - 1 && prev[i] === segs[i]) i++;
    for (let j = i; j < segs.length - 1; j++) {
      const dir = `${segs.slice(0, j + 1).join('/')}/`;
      rows.push({ path: dir, name: segs[j], level: j + 1, folder: true, count: counts.get(dir) ?? 0, expanded: true });
    }
    rows.push({ path: h.path, name: segs[segs.length - 1], level: segs.length, folder: false, count: h.lines, lang: h.lang });
    prev = segs.slice(0, -1);
  }
  return rows;
}

export function FileTree() {
  const [filter, setFilter] = useState('');
  const [files, setFiles] = useState<FileEntry[] | null>(null);
  const [focus, setFocus] = useState<string | null>(null);
  const tree = useRef<HTMLUListElement>(null);
  const key = cacheKey();
  useEffect(() => {
    void list('');
    for (const f of expanded.value) if (f) void list(f);
  }, [key]);
  useEffect(() => {
    if (filter && !files) void loadFiles().then(setFiles);
  }, [filter]);
  const l = listings.value;
  const rows = useMemo(
    () => (filter.trim() ? filteredRows(files ?? [], filter.trim()) : l.key === key ? browseRows(l.byFolder, expanded.value) : []),
    [filter, files, l, expanded.value, key],
  );
  const root = l.key === key ? l.byFolder.get('') : undefined;
  const at = Math.max(0, rows.findIndex((r) => r.path === focus));
  const here = view.value?.path;

  const moveTo = (i: number) => {
    const r = rows[Math.max(0, Math.min(rows.length - 1, i))];
    if (!r) return;
    setFocus(r.path);
    // At once when the row is drawn (a key pressed right after must reach it), else after the next frame.
    const el = () => tree.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(r.path)}"]`);
    const now = el();
    if (now) now.focus();
    else requestAnimationFrame(() => el()?.focus());
  };
  const activate = (r: Row) => (r.folder ? toggle(r.path) : void openFile(r.path));
  const onKey = (e: KeyboardEvent) => {
    // The row the key was pressed on (focus may have come by a click or a script).
    const at = rows.findIndex((x) => x.path === (e.target as HTMLElement).dataset?.path);
    const r = rows[at];
    if (!r) return;
    if (e.key === 'ArrowDown') moveTo(at + 1);
    else if (e.key === 'ArrowUp') moveTo(at - 1);
    else if (e.key === 'Home') moveTo(0);
    else if (e.key === 'End') moveTo(rows.length - 1);
    else if (e.key === 'ArrowRight' && r.folder) {
      if (!r.expanded) toggle(r.path, true);
      else moveTo(at + 1);
    } else if (e.key === 'ArrowLeft') {
      if (r.folder && r.expanded && !filter) toggle(r.path, false);
      else {
        const parent = rows.slice(0, at).reverse().find((x) => x.folder && x.level === r.level - 1);
        if (parent) moveTo(rows.indexOf(parent));
      }
    } else if (e.key === 'Enter' || (e.key === ' ' && r.folder)) activate(r);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div class="file-tree">
      <div class="tree-head">
        <input
          type="search"
          class="tree-filter"
          aria-label="Filter files by path"
          placeholder="Filter files by path"
          value={filter}
          spellcheck={false}
          onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' && rows.length) {
              e.preventDefault();
              moveTo(0);
            }
          }}
        />
        <span class="muted tree-count">
          {filter.trim() ? `${rows.filter((r) => !r.folder).length} of ${files?.length ?? '…'} files` : root ? `${root.total.toLocaleString('en')} files` : '…'}
        </span>
      </div>
      <ul class="tree" role="tree" aria-label="Files of the workspace" ref={tree} onKeyDown={onKey as unknown as (e: Event) => void}>
        {rows.map((r, i) => (
          <li
            key={r.path}
            role="treeitem"
            data-path={r.path}
            aria-level={r.level}
            aria-expanded={r.folder ? !!r.expanded : undefined}
            aria-selected={!r.folder && r.path === here}
            tabIndex={i === at ? 0 : -1}
            class={`tree-row${r.folder ? ' folder' : ' file'}${r.path === here ? ' here' : ''}`}
            style={{ paddingLeft: `${(r.level - 1) * 14 + 6}px` }}
            onFocus={() => setFocus(r.path)}
            onClick={() => {
              setFocus(r.path);
              activate(r);
            }}
          >
            <span class="twisty" aria-hidden="true">{r.folder ? (r.expanded ? '▾' : '▸') : ''}</span>
            <span class="tree-name">{r.name}</span>
            <span class="tree-n">
              {r.count}
              <span class="sr-only">{r.folder ? (r.count === 1 ? ' file' : ' files') : ' lines'}</span>
              {!r.folder && <span aria-hidden="true"> L</span>}
            </span>
          </li>
        ))}
      </ul>
      {root?.status === 'empty' && <p class="muted pad">{root.hint}</p>}
    </div>
  );
}
