// Node's zlib as the index's blob codec (core/index/file-data.ts DeflateCodec): the workspace's, and
// the parse workers' when they encode files' rows (parse-worker.ts), so both make the same blobs. Owns
// only the codec and its output chunk sizing.
import { createRequire } from 'node:module';
import type { DeflateCodec } from '../../core/index/file-data.ts';

const require = createRequire(import.meta.url);
let zlibModule: typeof import('node:zlib') | null = null;
/** node:zlib, loaded on the first blob (not at start: a command that reads no blob never needs it). */
const zlib = () => (zlibModule ??= require('node:zlib') as typeof import('node:zlib'));

/**
 * zlib's output chunk for `bytes` of output: that size (plus one byte, else zlib, having filled the chunk,
 * allocates another to look for more), at least zlib's minimum, at most ZLIB_MAX_CHUNK.
 */
const ZLIB_MIN_CHUNK = 64;
const ZLIB_MAX_CHUNK = 64 * 1024;
const chunkFor = (bytes: number) => Math.max(ZLIB_MIN_CHUNK, Math.min(ZLIB_MAX_CHUNK, bytes + 1));

/**
 * Node's zlib for the index's per-file blobs (same raw-deflate format as core's fflate default).
 *
 * Output chunks are sized to the output, not zlib's default 16 KB. A cold pass makes four calls per file
 * (a deflate and an inflate of its text and of its meta, writer.ts), a 2 KB file needs a few hundred
 * bytes to a few KB of output each, and every 16 KB chunk was garbage at once: ~60 KB of ArrayBuffers
 * per file, 800 MB over a 50k-chunk pass, piling up between collections (30-40 MB at a time) in the
 * main thread's malloc heap, which glibc then keeps (its trim threshold rises with the first large
 * block freed: measured 49 MB in a pass, so freed heap is rarely given back). Sized chunks took the
 * main heap's resident part at the pass's peak from 51-82 MB to 27-28 MB. A deflate's chunk is its
 * bound (input + 1/8 + 1/64, raw deflate of incompressible text stays under it); the cap keeps every
 * chunk below glibc's 128 KB mmap threshold (a freed mmapped block is what raises the thresholds).
 * The results may be views into a larger buffer (Node's Buffer pool): file-data.ts copies both
 * streams into the file's blob and decodes inflated bytes at once, so none is kept.
 */
export const zlibCodec: DeflateCodec = {
  deflateRaw: (data, dictionary) => zlib().deflateRawSync(data, { level: 6, dictionary, chunkSize: chunkFor(data.length + (data.length >> 3) + (data.length >> 6) + 16) }),
  inflateRaw: (data, dictionary, size) => zlib().inflateRawSync(data, size === undefined ? { dictionary } : { dictionary, chunkSize: chunkFor(size) }),
};
