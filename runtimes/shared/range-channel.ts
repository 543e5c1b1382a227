// Synchronous HTTP range requests for a thread that must not return to its event loop (SQLite's VFS
// calls are synchronous): the request goes to a helper worker (Node: worker_threads, Deno: a Web
// Worker — both run serveRangeRequests from its source text, rangeWorkerSource), which fetches and writes the reply into shared memory,
// while this thread waits on it with Atomics.wait. Owns the shared-memory protocol on both sides:
// a control word and status fields, the body area (grown when a longer range is asked), and the
// reply's headers as JSON; and a batch of ranges (readRanges) on the worker's side: one multi-range
// request (`Range: bytes=a-b, c-d`, a 206 multipart/byteranges reply cut into its parts), or — when
// the server does not answer it so, or was found not to — one request per range, all at once.
// Starting and ending the worker is the runtime's; what a reply means is remote-file.ts's.
import type { RangeBatchReply, RangeReader, RangeReply } from './remote-file.ts';

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
  /** A batch (readRanges): these ranges, in order (start/end then span them); their bytes one after the other in the body. */
  ranges?: Array<[number, number]>;
  /** Ask the batch in one multi-range request first (else one request per range at once). */
  multi?: boolean;
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
  /** A batch: the HTTP requests it took, and whether the server answered a multi-range request with its parts (absent: none asked). */
  requests?: number;
  multi?: boolean;
}

/** The client side: a RangeReader over any worker that answers RangeRequests (serveRangeRequests). */
export function createRangeChannel(post: (msg: RangeRequest) => void, opts: { timeoutMs?: number; close?: () => void } = {}): RangeReader {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const controlBuffer = new SharedArrayBuffer(CONTROL_WORDS * 4);
  const control = new Int32Array(controlBuffer);
  const metaBuffer = new SharedArrayBuffer(META_BYTES);
  let body = new SharedArrayBuffer(64 * 1024);
  let sentBuffers = false;
  /** Posts a request whose reply fills `length` body bytes at most and waits for it; null when the worker stopped. */
  const exchange = (msg: RangeRequest, length: number): { status: number; bodyLength: number; meta: ReplyMeta } | { timedOut: string } => {
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
    // The worker has its own timeout (per request; a batch's requests run at once); this one only guards against a worker that died.
    const waited = Atomics.wait(control, STATE, WAITING, timeoutMs + 5000);
    if (waited === 'timed-out') return { timedOut: `no reply within ${timeoutMs + 5000} ms (the range worker stopped)` };
    const metaLength = Atomics.load(control, META);
    const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(metaBuffer, 0, metaLength).slice())) as ReplyMeta;
    return { status: Atomics.load(control, STATUS), bodyLength: Atomics.load(control, BODY), meta };
  };
  return {
    read(url: string, start: number, end: number): RangeReply {
      const r = exchange({ url, start, end, timeoutMs }, end - start + 1);
      if ('timedOut' in r) return { status: 0, bytes: null, etag: null, lastModified: null, size: null, error: r.timedOut };
      const { status, bodyLength, meta } = r;
      const bytes = status === 206 ? new Uint8Array(body, 0, bodyLength).slice() : null;
      return { status, bytes, etag: meta.etag, lastModified: meta.lastModified, size: meta.size, ...(meta.error ? { error: meta.error } : {}) };
    },
    readRanges(url: string, ranges: ReadonlyArray<readonly [number, number]>, multi: boolean): RangeBatchReply {
      const list = ranges.map(([a, b]) => [a, b] as [number, number]);
      const total = list.reduce((n, [a, b]) => n + b - a + 1, 0);
      const r = exchange({ url, start: list[0][0], end: list[list.length - 1][1], ranges: list, multi, timeoutMs }, total);
      if ('timedOut' in r) return { status: 0, parts: null, etag: null, lastModified: null, size: null, requests: 1, multi: null, error: r.timedOut };
      const { status, bodyLength, meta } = r;
      let parts: Uint8Array[] | null = null;
      if (status === 206 && bodyLength === total) {
        const all = new Uint8Array(body, 0, bodyLength).slice();
        let at = 0;
        parts = list.map(([a, b]) => all.subarray(at, (at += b - a + 1)));
      }
      return {
        status: status === 206 && !parts ? 0 : status, parts, etag: meta.etag, lastModified: meta.lastModified, size: meta.size,
        requests: meta.requests ?? 1, multi: meta.multi ?? null,
        ...(meta.error ? { error: meta.error } : status === 206 && !parts ? { error: `the batch's replies held ${bodyLength} bytes for ${total}` } : {}),
      };
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
  /** One range request: status, validator, size, and a 206's body (a 200's is not read). */
  const fetchRange = async (url: string, range: string, signal: AbortSignal) => {
    const res = await fetch(url, { headers: { Range: `bytes=${range}`, 'Accept-Encoding': 'identity' }, signal });
    const head = { status: res.status, etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified'), contentRange: res.headers.get('content-range'), type: res.headers.get('content-type') ?? '' };
    if (res.status !== 206) {
      await res.body?.cancel().catch(() => {});
      return { ...head, bytes: null as Uint8Array | null };
    }
    return { ...head, bytes: new Uint8Array(await res.arrayBuffer()) };
  };
  /** A multipart/byteranges body's parts: each one's first byte in the file and its bytes (null when it does not parse). */
  const byteranges = (bytes: Uint8Array, type: string): Array<{ start: number; bytes: Uint8Array; size: number | null }> | null => {
    const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
    if (!m) return null;
    const text = new TextDecoder('latin1');
    const delimiter = `--${m[1] ?? m[2]}`;
    const parts: Array<{ start: number; bytes: Uint8Array; size: number | null }> = [];
    let at = 0;
    for (;;) {
      // The next delimiter line, then the part's headers up to an empty line (latin1: one char per byte).
      const window = text.decode(bytes.subarray(at, Math.min(bytes.length, at + 4096)));
      const d = window.indexOf(delimiter);
      if (d < 0) return null;
      if (window.startsWith('--', d + delimiter.length)) return parts;
      const headEnd = window.indexOf('\r\n\r\n', d);
      if (headEnd < 0) return null;
      const range = /content-range:\s*bytes\s+(\d+)-(\d+)(?:\/(\d+))?/i.exec(window.slice(d, headEnd));
      if (!range) return null;
      const start = Number(range[1]);
      const length = Number(range[2]) - start + 1;
      const from = at + headEnd + 4;
      if (from + length > bytes.length) return null;
      parts.push({ start, bytes: bytes.subarray(from, from + length), size: range[3] ? Number(range[3]) : null });
      at = from + length;
    }
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
    const info: { etag: string | null; lastModified: string | null; size: number | null; error?: string; requests?: number; multi?: boolean } = { etag: null, lastModified: null, size: null };
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), msg.timeoutMs);
    const out = new Uint8Array(body!);
    /** Takes a reply's validator into the meta: the first one's, or one that differs from it (remote-file.ts then sees the change). */
    let first = true;
    const note = (r: { etag: string | null; lastModified: string | null; contentRange: string | null }) => {
      if (first || r.etag !== info.etag || r.lastModified !== info.lastModified) {
        info.etag = r.etag;
        info.lastModified = r.lastModified;
      }
      first = false;
      info.size ??= sizeOf(r.contentRange);
    };
    try {
      if (!msg.ranges) {
        const r = await fetchRange(msg.url, `${msg.start}-${msg.end}`, abort.signal);
        note(r);
        status = r.status;
        if (r.bytes) {
          if (r.bytes.length > out.byteLength) {
            status = 0;
            info.error = `the server sent ${r.bytes.length} bytes for a range of ${msg.end - msg.start + 1}`;
          } else {
            out.set(r.bytes);
            length = r.bytes.length;
          }
        }
      } else {
        const ranges = msg.ranges;
        const offsets: number[] = [];
        let total = 0;
        for (const [a, b] of ranges) {
          offsets.push(total);
          total += b - a + 1;
        }
        const done = ranges.map(() => false);
        info.requests = 0;
        status = 206;
        if (msg.multi) {
          info.requests++;
          const r = await fetchRange(msg.url, ranges.map(([a, b]) => `${a}-${b}`).join(','), abort.signal);
          note(r);
          // A 206 answers the batch as parts (multipart/byteranges), or as one range that may hold them all; a 200 (ranges
          // ignored: its body is not read) leaves the batch to the requests below; any other status is the answer.
          const parts = r.status !== 206 || !r.bytes ? null
            : /multipart\/byteranges/i.test(r.type) ? byteranges(r.bytes, r.type)
            : [{ start: Number(/bytes\s+(\d+)-/.exec(r.contentRange ?? '')?.[1] ?? -1), bytes: r.bytes, size: null }];
          info.multi = !!parts?.length;
          // A multipart reply's size is in its parts' Content-Range.
          for (const p of parts ?? []) if (p.size !== null) info.size ??= p.size;
          if (r.status !== 206 && r.status !== 200) status = r.status;
          for (const p of parts ?? []) {
            ranges.forEach(([a, b], i) => {
              if (done[i] || p.start < 0 || a < p.start || b >= p.start + p.bytes.length) return;
              out.set(p.bytes.subarray(a - p.start, b - p.start + 1), offsets[i]);
              done[i] = true;
            });
          }
        }
        const rest = status === 206 ? ranges.map((_, i) => i).filter((i) => !done[i]) : [];
        info.requests += rest.length;
        const replies = await Promise.all(rest.map((i) => fetchRange(msg.url, `${ranges[i][0]}-${ranges[i][1]}`, abort.signal)));
        replies.forEach((r, k) => {
          const i = rest[k];
          note(r);
          if (status !== 206) return;
          if (r.status !== 206 || !r.bytes) status = r.status;
          else if (r.bytes.length !== ranges[i][1] - ranges[i][0] + 1) {
            status = 0;
            info.error = `the server sent ${r.bytes.length} bytes for a range of ${ranges[i][1] - ranges[i][0] + 1}`;
          } else out.set(r.bytes, offsets[i]);
        });
        if (status === 206) length = total;
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
