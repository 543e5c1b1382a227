// The HTTP server of test/helpers/range-server.ts, in its own worker thread: a remote index's reads
// block the thread that asks (Atomics.wait while its range worker fetches), so a server on the test's
// own thread would never answer. Plain JavaScript: a worker thread cannot load TypeScript.
import * as http from 'node:http';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { root, opts } = workerData;
// requests, bytes, ranges (206), full (200), multipart (206 multipart/byteranges: several ranges in one reply)
const stats = new Float64Array(workerData.stats);

const TYPES = { '.json': 'application/json', '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };

const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
  const file = path.resolve(root, rel);
  if (!file.startsWith(path.resolve(root)) || rel.split('/').includes('..')) {
    res.writeHead(403).end();
    return;
  }
  let st;
  try {
    st = statSync(file);
    if (!st.isFile()) throw new Error('not a file');
  } catch {
    // With the extra headers (CORS), as a static host answers a missing file to a page of another origin.
    res.writeHead(404, opts.headers ?? {}).end();
    return;
  }
  stats[0]++;
  const size = st.size;
  /** Bytes [start, end] of the file, read from disk for this request (a file replaced meanwhile is the new one). */
  const slice = (start, end) => {
    const fd = openSync(file, 'r');
    try {
      const out = Buffer.alloc(end - start + 1);
      readSync(fd, out, 0, out.length, start);
      return out;
    } finally {
      closeSync(fd);
    }
  };
  const common = {
    'Accept-Ranges': opts.ranges === false ? 'none' : 'bytes',
    'Last-Modified': st.mtime.toUTCString(),
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    // As static servers make it: from the file's identity, size and modification time (a replaced file gets a new one).
    ...(opts.noEtag ? {} : { ETag: `"${createHash('sha256').update(`${st.ino}-${size}-${st.mtimeMs}`).digest('hex').slice(0, 16)}"` }),
    ...opts.headers,
  };
  if (req.method === 'HEAD') {
    res.writeHead(200, { ...common, 'Content-Length': String(size) }).end();
    return;
  }
  const header = String(req.headers.range ?? '');
  const many = /^bytes=\d+-\d+(?:\s*,\s*\d+-\d+)+$/.test(header) ? header.slice(6).split(',').map((r) => r.trim().split('-').map(Number)) : null;
  if (many && opts.ranges !== false && opts.multiRange !== false) {
    // Several ranges (as nginx and Apache answer them): a 206 multipart/byteranges reply, one part per range, in order.
    if (many.some(([a, b]) => a > b || a >= size)) {
      res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const boundary = `hci${createHash('sha256').update(header).digest('hex').slice(0, 20)}`;
    const chunks = [];
    for (const [a, b0] of many) {
      const b = Math.min(b0, size - 1);
      const part = slice(a, b);
      stats[1] += part.length;
      chunks.push(Buffer.from(`\r\n--${boundary}\r\nContent-Type: ${common['Content-Type']}\r\nContent-Range: bytes ${a}-${b}/${size}\r\n\r\n`, 'latin1'), part);
    }
    chunks.push(Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'));
    const out = Buffer.concat(chunks);
    stats[2]++;
    stats[4]++;
    res.writeHead(206, { ...common, 'Content-Type': `multipart/byteranges; boundary=${boundary}`, 'Content-Length': String(out.length) }).end(out);
    return;
  }
  const range = /^bytes=(\d+)-(\d*)$/.exec(header);
  if (!range || opts.ranges === false) {
    stats[3]++;
    stats[1] += size;
    res.writeHead(200, { ...common, 'Content-Length': String(size) }).end(size ? slice(0, size - 1) : Buffer.alloc(0));
    return;
  }
  const start = Number(range[1]);
  const end = Math.min(range[2] ? Number(range[2]) : size - 1, size - 1);
  if (start >= size || start > end) {
    res.writeHead(416, { ...common, 'Content-Range': `bytes */${size}` }).end();
    return;
  }
  const part = slice(start, end);
  stats[2]++;
  stats[1] += part.length;
  res.writeHead(206, { ...common, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': String(part.length) }).end(part);
});

server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.postMessage('closed'));
  }
});
