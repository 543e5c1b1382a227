// A pass limited to some paths (IndexOptions.paths: what a watcher saw change). Owns when such a pass
// may stand in for a whole scan, which files it considers (scan/walker.ts scanPaths: the walker's
// own rules, applied to those paths only) and which stored rows it compares them with (only the
// rows at or below those paths, never the whole files table). Writing is the indexer's, as usual.
import type { WorkspaceFs } from '../platform.ts';
import type { Settings } from '../settings.ts';
import { scanPaths, toWorkspacePath, type PathScanResult } from '../scan/walker.ts';
import type { IndexStore } from './store.ts';
import { readMeta } from './meta.ts';

export interface PriorFile {
  id: number;
  path: string;
  size: number;
  mtime_ms: number;
  hash: string;
  generation: number;
}

export interface TargetedPlan {
  scan: PathScanResult;
  prior: { meta: Record<string, string>; files: Map<string, PriorFile> };
}

/**
 * Validates and normalises the paths of IndexOptions.paths (HciError 'path_outside_workspace' for
 * an absolute path or a '..' segment); duplicates and paths inside another given path are dropped.
 * Returns null when one of them is the workspace root (that is a whole pass).
 */
export function normalizeTargets(paths: readonly string[], backslashInNames = false): string[] | null {
  const norm = [...new Set(paths.map((p) => toWorkspacePath(p, backslashInNames)))].sort();
  if (norm.includes('')) return null;
  // Sorted, a path's descendants follow it (before any sibling that sorts after 'x/').
  return norm.filter((p, i) => !norm.slice(0, i).some((q) => p.startsWith(`${q}/`)));
}

/**
 * The scan and prior rows of a pass over `paths` only, or null when the pass must scan the whole
 * workspace instead: the index is not complete (a first build, a cancelled run) or was cut with other
 * chunking settings; a path leads through a symlinked directory; new files would take the index past
 * max_files (the whole scan then fails with the real count).
 */
export async function planTargeted(
  fs: WorkspaceFs,
  store: IndexStore,
  settings: Settings,
  fingerprint: string,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<TargetedPlan | null> {
  const targets = normalizeTargets(paths, fs.backslashInNames);
  if (!targets) return null;
  const prior = await store.read((db) => {
    const meta = readMeta(db);
    if (meta.build_state !== 'complete' || meta.chunking_fingerprint !== fingerprint) return null;
    const files = new Map<string, PriorFile>();
    // Each path's own row and the rows below it (it may have been, or have become, a directory).
    // '/' + 1 is '0': [p + '/', p + '0') is exactly the paths below p, on the path index.
    const st = db.prepare('SELECT id, path, size, mtime_ms, hash, generation FROM files WHERE path = ? OR (path >= ? AND path < ?)');
    try {
      for (const p of targets) {
        st.bind([p, `${p}/`, `${p}0`]);
        while (st.step()) {
          const r = st.get({}) as unknown as PriorFile;
          files.set(r.path, r);
        }
        st.reset();
      }
    } finally {
      st.finalize();
    }
    const count = Number(db.selectValue('SELECT count(*) FROM files'));
    return { meta, files, count };
  });
  if (!prior) return null;
  const scan = await scanPaths(fs, settings, targets, { signal });
  if (!scan) return null;
  const added = scan.files.filter((f) => !prior.files.has(f.path)).length;
  if (added > 0 && prior.count + added > settings.max_files) return null;
  return { scan, prior: { meta: prior.meta, files: prior.files } };
}
