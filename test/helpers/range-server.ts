// Test helper: a real static file server on 127.0.0.1 for published indexes — serves a folder's files
// with HTTP range requests (206, Content-Range, ETag from the file's identity, size and mtime, Last-Modified) or, with
// `ranges: false`, the whole file for every request (200), as a server that does not honour ranges. Several
// ranges in one request get a multipart/byteranges reply (as nginx and Apache give), or — `multiRange: false` — the
// whole file (200), as servers that honour one range only (S3, many CDNs) answer them.
// Counts requests and bytes (all files); a file replaced on disk gets a new ETag. The server runs in
// a worker thread (range-server-thread.mjs, started by bench/lib/range-server.ts, which the bench
// uses as well): a remote index blocks the thread that reads it. Used by the remote index tests.
import { startRangeServerThread } from '../../bench/lib/range-server.ts';

export interface RangeServer {
  url(file: string): string;
  origin: string;
  /** Requests and body bytes served since the last reset (all files): 206 range replies (multipart ones among them) and 200 whole-file replies. */
  readonly stats: { requests: number; bytes: number; ranges: number; full: number; multipart: number };
  reset(): void;
  close(): Promise<void>;
}

export interface RangeServerOptions {
  /** false: answer every GET with the whole file (HTTP 200), ignoring Range. */
  ranges?: boolean;
  /** Extra headers on every reply (e.g. CORS or cross-origin isolation for a browser page). */
  headers?: Record<string, string>;
  /** Send no ETag (Last-Modified only). */
  noEtag?: boolean;
  /** false: answer a request for several ranges with the whole file (HTTP 200); default a multipart/byteranges 206. */
  multiRange?: boolean;
}

export async function startRangeServer(root: string, opts: RangeServerOptions = {}): Promise<RangeServer> {
  const shared = new SharedArrayBuffer(5 * 8);
  const counts = new Float64Array(shared);
  const { origin, close } = await startRangeServerThread(root, opts, shared);
  return {
    origin,
    url: (f) => `${origin}/${f.split('/').map(encodeURIComponent).join('/')}`,
    get stats() {
      return { requests: counts[0], bytes: counts[1], ranges: counts[2], full: counts[3], multipart: counts[4] };
    },
    reset: () => counts.fill(0),
    close,
  };
}
