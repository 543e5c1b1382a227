// The test page: starts the hci Worker and offers window.harness, a few JSON-in/JSON-out calls
// that the Playwright-driven tests use (errors come back as { error: { code, message, hint } }).
// It is the smallest real user of the browser runtime: connectHci, comlink progress callbacks,
// file sources (zip, <input webkitdirectory>, an OPFS folder handle, files given as text), export
// and import, and the Worker's default grammar URLs (assets.ts) loaded here with its own loader.
import { unzipSync } from 'fflate';
import { connectHci, type BrowserWorkspace, type HciClient } from '../../runtimes/browser/client.ts';
import type { SearchRequest } from '../../core/search/contract.ts';
import type { VerbInput, VerbName } from '../../core/service/verbs.ts';
import type { Settings } from '../../core/settings.ts';
import { TreeSitterHost, type GrammarName } from '../../core/chunk/treesitter.ts';
import { defaultWasmUrls } from '../../runtimes/browser/assets.ts';
import { createUrlGrammarSource } from '../../runtimes/browser/loaders.ts';

const worker = new Worker(new URL('../../runtimes/browser/worker.ts', import.meta.url), { type: 'module' });
const clientReady: Promise<HciClient> = connectHci(worker);
const open = new Map<string, BrowserWorkspace>();
/** The Worker's parse-worker events since the page loaded, in order. */
const parseWorkerLife: Array<'started' | 'ended'> = [];
void clientReady.then((c) => c.onEvent((e) => void (e.type === 'parse-worker' && parseWorkerLife.push(e.state))));

type Result<T> = { ok: T } | { error: { code: string; message: string; hint?: string } };

async function call<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: await fn() };
  } catch (e) {
    const err = e as { code?: string; message?: string; hint?: string };
    return { error: { code: err.code ?? 'unknown', message: err.message ?? String(e), hint: err.hint } };
  }
}

function ws(name: string): BrowserWorkspace {
  const w = open.get(name);
  if (!w) throw Object.assign(new Error(`harness: ${name} is not open`), { code: 'harness' });
  return w;
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`harness: GET ${url} → ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function opfsDir(path: string, create = true): Promise<FileSystemDirectoryHandle> {
  let dir = await navigator.storage.getDirectory();
  for (const seg of path.split('/').filter(Boolean)) dir = await dir.getDirectoryHandle(seg, { create });
  return dir;
}

async function writeOpfsFile(root: FileSystemDirectoryHandle, rel: string, bytes: Uint8Array | string): Promise<void> {
  const segs = rel.split('/');
  let dir = root;
  for (const seg of segs.slice(0, -1)) dir = await dir.getDirectoryHandle(seg, { create: true });
  const fh = await dir.getFileHandle(segs[segs.length - 1], { create: true });
  const w = await (fh as FileSystemFileHandle & { createWritable(): Promise<FileSystemWritableFileStream> }).createWritable();
  await w.write(bytes as BufferSource | string);
  await w.close();
}

async function removeOpfsFile(root: FileSystemDirectoryHandle, rel: string): Promise<void> {
  const segs = rel.split('/');
  let dir = root;
  for (const seg of segs.slice(0, -1)) dir = await dir.getDirectoryHandle(seg);
  await dir.removeEntry(segs[segs.length - 1]);
}

const harness = {
  ready: () => call(async () => (await clientReady, true)),

  /** Each parse worker's start and end, as the Worker reported them (worker-api.ts 'parse-worker' events). */
  parseWorkerLife: () => call(async () => [...parseWorkerLife]),

  openZip: (name: string, url: string, settings?: Partial<Settings>) =>
    call(async () => {
      const w = await (await clientReady).open(name, { kind: 'zip', bytes: await fetchBytes(url), name: 'sample.zip' }, settings ? { settings } : {});
      open.set(name, w);
      return w.info;
    }),

  /** The files picked in <input id="folder" webkitdirectory> (set by Playwright's setInputFiles). */
  openPickedFolder: (name: string) =>
    call(async () => {
      const input = document.getElementById('folder') as HTMLInputElement;
      if (!input.files?.length) throw new Error('harness: no folder picked');
      const w = await (await clientReady).open(name, { kind: 'files', files: input.files });
      open.set(name, w);
      return { ...w.info, picked: input.files.length };
    }),

  /** Unpacks a served zip into an OPFS folder (a real FileSystemDirectoryHandle for the Worker). */
  makeOpfsFolder: (folder: string, zipUrl: string) =>
    call(async () => {
      const parent = await opfsDir('fixtures');
      await parent.removeEntry(folder, { recursive: true }).catch(() => {});
      const root = await opfsDir(`fixtures/${folder}`);
      const files = Object.entries(unzipSync(await fetchBytes(zipUrl))).filter(([p]) => !p.endsWith('/'));
      // Like the Worker's zip source: a single top folder is the root.
      const tops = new Set(files.map(([p]) => p.split('/')[0]));
      const strip = tops.size === 1 && files.every(([p]) => p.includes('/')) ? [...tops][0].length + 1 : 0;
      for (const [p, bytes] of files) await writeOpfsFile(root, p.slice(strip), bytes);
      return files.length;
    }),

  editOpfsFolder: (folder: string, edits: { write?: Record<string, string>; remove?: string[] }) =>
    call(async () => {
      const root = await opfsDir(`fixtures/${folder}`, false);
      for (const [p, text] of Object.entries(edits.write ?? {})) await writeOpfsFile(root, p, text);
      for (const p of edits.remove ?? []) await removeOpfsFile(root, p);
      return true;
    }),

  openOpfsFolder: (name: string, folder: string, settings?: Partial<Settings>) =>
    call(async () => {
      const w = await (await clientReady).open(name, { kind: 'directory', handle: await opfsDir(`fixtures/${folder}`, false) }, settings ? { settings } : {});
      open.set(name, w);
      return w.info;
    }),

  /** Files given as text (the Worker's `memory` source), with settings overrides. */
  openMemory: (name: string, files: Record<string, string>, settings?: Partial<Settings>) =>
    call(async () => {
      const w = await (await clientReady).open(name, { kind: 'memory', files, name }, settings ? { settings } : {});
      open.set(name, w);
      return w.info;
    }),

  /**
   * The grammar URLs the Worker is given (defaultWasmUrls, from hciVitePlugin()'s generated module),
   * each loaded here through the same loader and parsed once: grammar id → the tree's root type.
   */
  loadGrammars: () =>
    call(async () => {
      const host = new TreeSitterHost(createUrlGrammarSource(defaultWasmUrls)!);
      const roots: Record<string, string> = {};
      for (const id of Object.keys(defaultWasmUrls.grammars ?? {}) as GrammarName[]) {
        const tree = await host.parse(id, 'x');
        roots[id] = tree.rootNode.type;
        tree.delete();
      }
      return roots;
    }),

  /** Opens a workspace without files: its stored index (or none yet). */
  openStored: (name: string, waitMs?: number) =>
    call(async () => {
      const w = await (await clientReady).open(name, undefined, waitMs === undefined ? {} : { waitMs });
      open.set(name, w);
      return w.info;
    }),

  /** Opens a published index (`hci pack`) by its URL: read over HTTP ranges, nothing stored in OPFS. */
  openIndex: (name: string, url: string) =>
    call(async () => {
      const w = await (await clientReady).open(name, undefined, { index: url });
      open.set(name, w);
      return w.info;
    }),

  index: (name: string, opts: { full?: boolean } = {}) =>
    call(async () => {
      const phases: string[] = [];
      let reports = 0;
      let last: unknown = null;
      const summary = await ws(name).index({
        full: opts.full,
        onProgress: (p) => {
          reports++;
          last = p;
          if (phases[phases.length - 1] !== p.phase) phases.push(p.phase);
        },
      });
      // Progress callbacks are one-way messages: let the last ones arrive.
      await new Promise((r) => setTimeout(r, 50));
      return { summary, reports, phases, last };
    }),

  /** Starts a full run and cancels it from its first progress report in the 'index' phase. */
  indexAndCancel: (name: string) =>
    call(async () => {
      const w = ws(name);
      let cancelled = false;
      try {
        await w.index({
          full: true,
          onProgress: (p) => {
            if (p.phase === 'index' && !cancelled) {
              cancelled = true;
              void w.cancel();
            }
          },
        });
        return { code: 'finished' };
      } catch (e) {
        return { code: (e as { code?: string }).code ?? 'unknown' };
      }
    }),

  /** Starts a run without waiting for it; window.hciProgress holds its latest progress report. */
  indexInBackground: (name: string) =>
    call(async () => {
      void ws(name)
        .index({ onProgress: (p) => void ((window as unknown as { hciProgress: unknown }).hciProgress = p) })
        .catch(() => {});
      return true;
    }),

  search: (name: string, req: SearchRequest) => call(() => ws(name).call('search', req)),

  /** Runs each query `repeats` times; returns the first answer per query and every wall time (ms). */
  searchMany: (name: string, queries: SearchRequest[], repeats: number) =>
    call(async () => {
      const w = ws(name);
      const answers = [];
      const times: number[] = [];
      for (const q of queries) {
        let first = null;
        for (let i = 0; i < repeats; i++) {
          const t0 = performance.now();
          const r = await w.call('search', q);
          times.push(performance.now() - t0);
          first ??= r;
        }
        answers.push(first);
      }
      return { answers, times };
    }),

  /**
   * Sends every search at once (one page task), each in its lane (null: none), as typing does; answers
   * each with its query and first path, or `superseded` (a newer call of its lane came before it ran).
   */
  searchLanes: (name: string, calls: Array<{ req: SearchRequest; lane: string | null }>) =>
    call(async () => {
      const w = ws(name);
      return Promise.all(
        calls.map(({ req, lane }) =>
          (lane === null ? w.call('search', req) : w.call('search', req, { lane })).then(
            (r) => ({ query: r.query, first: r.hits[0]?.path ?? null }),
            (e: { code?: string }) => {
              if (e.code === 'superseded') return 'superseded' as const;
              throw e;
            },
          ),
        ),
      );
    }),

  status: (name: string, checkPending = false) => call(() => ws(name).call('status', { check_pending: checkPending })),
  explain: (name: string, hitId: string) => call(() => ws(name).call('explain', { hit_id: hitId })),
  outline: (name: string, path: string) => call(() => ws(name).call('outline', { path })),
  /** Any verb of the verb table through the Worker's one call(). */
  verb: <V extends VerbName>(name: string, verb: V, req: VerbInput<V>) => call(() => ws(name).call(verb, req)),

  exportIndex: (name: string) =>
    call(async () => {
      const bytes = await ws(name).exportIndex();
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(bin);
    }),

  importIndex: (name: string, url: string) => call(async () => ws(name).importIndex(await fetchBytes(url))),

  close: (name: string) =>
    call(async () => {
      await ws(name).close();
      open.delete(name);
      return true;
    }),

  remove: (name: string) =>
    call(async () => {
      await ws(name).remove();
      open.delete(name);
      return true;
    }),

  list: () => call(async () => (await clientReady).list()),
};

(window as unknown as { harness: typeof harness }).harness = harness;
export type Harness = typeof harness;
