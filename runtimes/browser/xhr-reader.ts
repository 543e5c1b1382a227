// The browser Worker's RangeReader (runtimes/shared/remote-file.ts) for a published index read over
// HTTP: one synchronous XMLHttpRequest per range — SQLite's VFS calls are synchronous, and a Worker
// (unlike a page) may block on XHR, with a timeout and a binary body. Owns the request and turning
// its answer into a RangeReply; what a reply means (no ranges, changed, unreachable) is remote-file.ts's.
// Cross-origin, the host must allow the page's origin (CORS); Content-Range and ETag are read when it
// exposes them, else the size comes from the index's header and Last-Modified is the validator.
import type { RangeReader, RangeReply } from '../shared/remote-file.ts';

export function createXhrRangeReader(opts: { timeoutMs?: number } = {}): RangeReader {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return {
    read(url: string, start: number, end: number): RangeReply {
      const xhr = new XMLHttpRequest();
      try {
        xhr.open('GET', url, false);
        xhr.responseType = 'arraybuffer';
        xhr.timeout = timeoutMs;
        xhr.setRequestHeader('Range', `bytes=${start}-${end}`);
        xhr.send();
      } catch (e) {
        // A refused connection, a timeout, or a host that does not allow this origin (CORS): the
        // browser tells these apart to no script, only in its console.
        const name = (e as { name?: string }).name;
        const error = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `network error (the server is down, or does not allow this page's origin: CORS) — ${(e as Error).message ?? e}`;
        return { status: 0, bytes: null, etag: null, lastModified: null, size: null, error };
      }
      const header = (name: string) => {
        try {
          return xhr.getResponseHeader(name);
        } catch {
          return null;
        }
      };
      const range = /\/(\d+)\s*$/.exec(header('content-range') ?? '');
      return {
        status: xhr.status,
        bytes: xhr.status === 206 && xhr.response ? new Uint8Array(xhr.response as ArrayBuffer) : null,
        etag: header('etag'),
        lastModified: header('last-modified'),
        size: range ? Number(range[1]) : null,
      };
    },
  };
}
