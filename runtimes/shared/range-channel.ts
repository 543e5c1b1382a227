// Synchronous HTTP range requests for a thread that must not return to its event loop (SQLite's VFS
// calls are synchronous): the request goes to a helper worker (Node: worker_threads, Deno: a Web
// Worker — both run serveRangeRequests from its source text, rangeWorkerSource), which fetches and writes the reply into shared memory,
// while this thread waits on it with Atomics.wait. Owns the shared-memory protocol on both sides:
// a control word and status fields, the body area (grown when a longer range is asked), and the
// reply's headers as JSON. Starting and ending the worker is the runtime's; what a reply means is
// remote-file.ts's.
import type { RangeReader, RangeReply } from './remote-file.ts';

/**
 * The shared memory's layout, for both sides (the worker gets it as an argument: its code runs from
 * source text). Control words (Int32 indexes): the state, the HTTP status, the body's length, the
 * meta JSON's length; the state is WAITING or DONE; META_BYTES for the reply's headers and error, as JSON.
 */
const LAYOUT = { STATE: 0, STATUS: 1, BODY: 2, META: 3, CONTROL_WORDS: 4, META_BYTES: 8192, WAITING: 0, DONE: 1 } as const;
export type RangeLayout = typeof LAYOUT;
const { STATE, STATUS, BODY, META, CONTROL_WORDS, META_BYTES, WAITING } = LAYOUT;

/** A request as the worker gets it; `control`, `body` and `meta` are shared, sent when (re)allocated. */
export interface RangeRequest {
  url: string;
  start: number;
  end: number;
  timeoutMs: number;
  control?: SharedArrayBuffer;
  body?: SharedArrayBuffer;
  meta?: SharedArrayBuffer;
}

/** What the worker writes into the meta area. */
interface ReplyMeta {
  etag: string | null;
  lastModified: string | null;
  size: number | null;
  error?: string;
}

/** The client side: a RangeReader over any worker that answers RangeRequests (serveRangeRequests). */
export function createRangeChannel(post: (msg: RangeRequest) => void, opts: { timeoutMs?: number; close?: () => void } = {}): RangeReader {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const controlBuffer = new SharedArrayBuffer(CONTROL_WORDS * 4);
  const control = new Int32Array(controlBuffer);
  const metaBuffer = new SharedArrayBuffer(META_BYTES);
  let body = new SharedArrayBuffer(64 * 1024);
  let sentBuffers = false;
  return {
    read(url: string, start: number, end: number): RangeReply {
      const length = end - start + 1;
      const msg: RangeRequest = { url, start, end, timeoutMs };
      if (length > body.byteLength) {
        body = new SharedArrayBuffer(Math.max(length, body.byteLength * 2));
        msg.body = body;
      }
      if (!sentBuffers) {
        Object.assign(msg, { control: controlBuffer, body, meta: metaBuffer });
        sentBuffers = true;
      }
      Atomics.store(control, STATE, WAITING);
      post(msg);
      // The worker has its own timeout; this one only guards against a worker that died.
      const waited = Atomics.wait(control, STATE, WAITING, timeoutMs + 5000);
      if (waited === 'timed-out') return { status: 0, bytes: null, etag: null, lastModified: null, size: null, error: `no reply within ${timeoutMs + 5000} ms (the range worker stopped)` };
      const status = Atomics.load(control, STATUS);
      const bodyLength = Atomics.load(control, BODY);
      const metaLength = Atomics.load(control, META);
      const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(metaBuffer, 0, metaLength).slice())) as ReplyMeta;
      const bytes = status === 206 ? new Uint8Array(body, 0, bodyLength).slice() : null;
      return { status, bytes, etag: meta.etag, lastModified: meta.lastModified, size: meta.size, ...(meta.error ? { error: meta.error } : {}) };
    },
    close: opts.close,
  };
}

/**
 * The worker side: answers each RangeRequest with fetch and wakes the waiting thread. A 200 (the
 * whole file: the server ignores ranges) is reported without reading its body. Self-contained (no
 * name from outside its body; the layout comes as an argument): runtimes start it from its source
 * text (rangeWorkerSource), so no worker script file has to be found, built or granted read access.
 */
export function serveRangeRequests(listen: (handler: (msg: RangeRequest) => void) => void, layout: RangeLayout): void {
  const { STATE, STATUS, BODY, META, META_BYTES, DONE } = layout;
  const sizeOf = (v: string | null): number | null => {
    const m = v ? /\/(\d+)\s*$/.exec(v) : null;
    return m ? Number(m[1]) : null;
  };
  let control: Int32Array | null = null;
  let body: SharedArrayBuffer | null = null;
  let meta: Uint8Array | null = null;
  listen(async (msg) => {
    if (msg.control) control = new Int32Array(msg.control);
    if (msg.body) body = msg.body;
    if (msg.meta) meta = new Uint8Array(msg.meta);
    let status = 0;
    let length = 0;
    const info: { etag: string | null; lastModified: string | null; size: number | null; error?: string } = { etag: null, lastModified: null, size: null };
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), msg.timeoutMs);
    try {
      const res = await fetch(msg.url, { headers: { Range: `bytes=${msg.start}-${msg.end}`, 'Accept-Encoding': 'identity' }, signal: abort.signal });
      status = res.status;
      info.etag = res.headers.get('etag');
      info.lastModified = res.headers.get('last-modified');
      info.size = sizeOf(res.headers.get('content-range'));
      if (status === 206) {
        const bytes = new Uint8Array(await res.arrayBuffer());
        if (bytes.length > body!.byteLength) {
          status = 0;
          info.error = `the server sent ${bytes.length} bytes for a range of ${msg.end - msg.start + 1}`;
        } else {
          new Uint8Array(body!).set(bytes);
          length = bytes.length;
        }
      } else {
        await res.body?.cancel().catch(() => {});
      }
    } catch (e) {
      status = 0;
      const cause = (e as { cause?: { message?: string } }).cause?.message;
      info.error = abort.signal.aborted ? `no answer within ${msg.timeoutMs} ms` : `${String((e as Error)?.message ?? e)}${cause ? ` (${cause})` : ''}`;
    } finally {
      clearTimeout(timer);
    }
    const json = new TextEncoder().encode(JSON.stringify(info)).subarray(0, META_BYTES);
    meta!.set(json);
    Atomics.store(control!, STATUS, status);
    Atomics.store(control!, BODY, length);
    Atomics.store(control!, META, json.length);
    Atomics.store(control!, STATE, DONE);
    Atomics.notify(control!, STATE);
  });
}

/**
 * The source of a worker that serves range requests: serveRangeRequests's own text, called with
 * `listen` (JavaScript source of a function that hands each message's data to its handler) and the layout.
 */
export function rangeWorkerSource(listen: string): string {
  return `(${serveRangeRequests.toString()})(${listen}, ${JSON.stringify(LAYOUT)});\n`;
}
