// A rebuild's first half: replays a log (log.ts reader, projection.ts) and re-resolves every anchor
// against the code as it is now (anchors.ts over a CodeView), into the snapshot the sidecar writes in
// one transaction (sidecar.ts). Loads each file an anchor names once, with its text. Owns no storage
// and decides nothing about when to rebuild (intercom.ts).
import type { IntercomLogFile, LogReadStats, LogStat } from './log.ts';
import { logMissing, readLogEvents } from './log.ts';
import { projectThreads } from './projection.ts';
import { workspacePath } from './code-ref.ts';
import { resolveAnchor } from './anchors.ts';
import type { CodeView, FileView } from './code-view.ts';
import type { LogSnapshot } from './sidecar.ts';

/** Files loaded at once (outline from the index, text from the workspace). */
const FILE_LOAD_CONCURRENCY = 8;

export async function snapshotLog(
  log: IntercomLogFile, st: LogStat, view: CodeView, rootLabel: string,
): Promise<{ snapshot: LogSnapshot & { stats: LogReadStats }; threads: number; anchors: number }> {
  const bytes = await log.read();
  if (!bytes) throw logMissing(log.location);
  const { events, stats } = readLogEvents(bytes);
  const threads = projectThreads(events);
  // Every file an anchor names, as a workspace path (null: outside the workspace, resolved as stale).
  const pathOf = new Map<string, string | null>();
  for (const t of threads.values()) {
    for (const a of t.anchors) {
      if (pathOf.has(a.anchor.file)) continue;
      try {
        pathOf.set(a.anchor.file, workspacePath(a.anchor.file, rootLabel));
      } catch {
        pathOf.set(a.anchor.file, null);
      }
    }
  }
  const wanted = [...new Set([...pathOf.values()].filter((p): p is string => p !== null))].sort();
  const views = new Map<string, FileView>();
  for (let i = 0; i < wanted.length; i += FILE_LOAD_CONCURRENCY) {
    const batch = wanted.slice(i, i + FILE_LOAD_CONCURRENCY);
    for (const fv of await Promise.all(batch.map((p) => view.file(p, { text: true })))) views.set(fv.path, fv);
  }
  let anchors = 0;
  const snapshot = {
    // The bytes read may run past the stat taken before (an append in between): record what was read.
    location: log.location, size: bytes.length, mtimeMs: st.mtimeMs,
    indexGeneration: await view.indexGeneration(), stats,
    threads: [...threads.values()].map((t) => {
      anchors += t.anchors.length;
      return {
        threadId: t.threadId, messages: t.messages, skipped: t.skipped,
        anchors: t.anchors.map((p) => {
          const path = pathOf.get(p.anchor.file) ?? null;
          return { projected: p, resolved: resolveAnchor(path === null ? p.anchor : { ...p.anchor, file: path }, path === null ? null : views.get(path)!) };
        }),
      };
    }),
    files: [...views.values()].map((fv) => ({ file: fv.path, size: fv.size, mtimeMs: fv.mtimeMs })),
  };
  return { snapshot, threads: threads.size, anchors };
}
