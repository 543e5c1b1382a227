// A read-only database file behind a URL, read in HTTP ranges: what the hci-http VFS (http-vfs.ts)
// serves SQLite's page reads from. Owns the probe (the first range: the header, the page size, the
// size, the validator), the page cache (LRU under a byte budget), read-ahead (runs of pages read in
// order — a keyword's doclist, an overflow chain, a range of rows — are fetched in growing runs,
// per read head, a small gap skipped), prefetch of pages known ahead (a range per run of them in one
// request, or coalesced across small gaps into few requests where the server answers one range each;
// which pages, btree-pages.ts finds; several runs in one batch: one multi-range request where the server answers
// them, else their requests at once), checking every reply against the validator the probe saw (ETag, else
// Last-Modified and the size: a file replaced under the URL is `remote_changed`, never read mixed),
// re-checking it when a read transaction starts after `revalidateMs`, and the counts of requests
// and bytes. The synchronous range request itself is the runtime's RangeReader (Node and Deno: a
// helper worker, range-channel.ts; a browser Worker: a synchronous XMLHttpRequest).
import { HciError } from '../../core/platform.ts';
import { interiorChildren } from './btree-pages.ts';

/** One reply to `GET url` with `Range: bytes=start-end`. */
export interface RangeReply {
  /** The HTTP status (206 for a range); 0 when no answer came (network failure, timeout). */
  status: number;
  /** The body of a 206 reply; null otherwise (a 200's body is not read: it is the whole file). */
  bytes: Uint8Array | null;
  etag: string | null;
  lastModified: string | null;
  /** The file's size from Content-Range (`bytes a-b/size`); null when absent or not readable (CORS). */
  size: number | null;
  /** What went wrong, when status is 0. */
  error?: string;
}

/** The reply to a batch of ranges (RangeReader.readRanges). */
export interface RangeBatchReply {
  /** 206 when every range came; else the failing reply's status (0: no answer, or a reply that did not parse). */
  status: number;
  /** Each range's bytes, in the order asked (when status is 206). */
  parts: Uint8Array[] | null;
  etag: string | null;
  lastModified: string | null;
  size: number | null;
  /** HTTP requests the batch took: 1 when the server answered one multi-range request with the parts. */
  requests: number;
  /** Whether the server answered the multi-range request with the parts (null: none was asked). */
  multi: boolean | null;
  error?: string;
}

/** A synchronous range request: the runtime's (it blocks the caller until the reply is in). */
export interface RangeReader {
  read(url: string, start: number, end: number): RangeReply;
  /**
   * Several ranges of the file at once, when the runtime can: with `multi`, one request naming them all
   * (`Range: bytes=a-b,c-d`; a 206 multipart/byteranges reply), the ranges it did not answer — all of
   * them, when the server ignores multi-range requests — as one request each, all in flight together.
   */
  readRanges?(url: string, ranges: ReadonlyArray<readonly [number, number]>, multi: boolean): RangeBatchReply;
  close?(): void;
}

export interface RemoteFileOptions {
  /** Bytes of pages kept (default 32 MiB). */
  cacheBytes?: number;
  /** The longest run of pages one request reads ahead, in bytes (default 1 MiB). */
  maxReadAhead?: number;
  /** The first request's length: the header and the first pages (default 64 KiB, the largest page). */
  probeBytes?: number;
  /**
   * From a server that answers one range per request, a prefetch (pages known ahead, prefetch())
   * reads the pages between two wanted ones too when the gap is at most this many bytes: one
   * request instead of two (a server that answers several ranges in one request gets a range per
   * run instead); and a read at most this far past where a read head stopped continues that head (a
   * scan that skips a few pages still reads ahead) (default 32 KiB).
   */
  prefetchGapBytes?: number;
  /** Most ranges one batched request names (RangeReader.readRanges; default 64: a Range header of ~1.5 KB). */
  maxRangesPerRequest?: number;
  /** A read transaction re-checks the validator when the last reply is older than this (default 5 s; 0: every time). */
  revalidateMs?: number;
  now?: () => number;
  /** Told each run of pages a reply brought (0-based index of its first page, how many): the remote bench attributes them to B-trees. */
  onPages?: (first: number, count: number) => void;
}

export interface RemoteStats {
  /** HTTP requests (a multi-range request answered with its parts counts once). */
  requests: number;
  bytes: number;
  /** Page reads SQLite asked for, and how many the cache answered. */
  pageReads: number;
  cacheHits: number;
}

interface ReadHead {
  /** The page after the last one this head read. */
  next: number;
  /**
   * Pages its next request reads: as many as it has read so far (a scan's requests double while
   * its reads stay in order, and what it fetches past the scan's end is at most what it read).
   */
  run: number;
  used: number;
}

const HEADS = 4;
const SQLITE_MAGIC = 'SQLite format 3\0';

/** Where the index URL fails, as the user reads it. */
export function remoteError(url: string, reply: RangeReply): HciError {
  if (reply.status === 0) {
    const permission = /NotCapable|Requires net access|--allow-net/i.test(reply.error ?? '');
    if (permission) return new HciError('permission_needed', `hci under Deno cannot fetch ${url}: ${reply.error}`, `grant --allow-net=${hostOf(url)}`);
    return new HciError('remote_unreachable', `cannot fetch ${url}: ${reply.error ?? 'no answer'}`, 'check the URL and that the server is up');
  }
  if (reply.status === 200) {
    return new HciError('remote_no_ranges', `the server of ${url} answered a range request with the whole file (HTTP 200, not 206): it does not serve byte ranges`, 'publish the index on a host that answers HTTP range requests (GitHub Pages, S3, nginx, `npx http-server`…), or download it and open the file');
  }
  if (reply.status === 404 || reply.status === 410) return new HciError('remote_unreachable', `no index at ${url} (HTTP ${reply.status})`, 'check the URL: it names the packed .sqlite file (hci pack --out)');
  if (reply.status === 412) return changed(url, 'its validator no longer matches');
  return new HciError('remote_unreachable', `fetching ${url} failed with HTTP ${reply.status}`, reply.status === 401 || reply.status === 403 ? 'the server refuses access: check the URL\'s permissions' : 'retry later, or check the server');
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function changed(url: string, why: string): HciError {
  return new HciError('remote_changed', `the index at ${url} changed while it was read (${why})`, 'it was replaced by a new version: ask again (the next call opens the new one)');
}

/** The validator a reply carries: its ETag, else its Last-Modified; with the size, when known. */
function validatorOf(r: RangeReply): string | null {
  return r.etag ?? (r.lastModified ? `lm:${r.lastModified}` : null);
}

/** Sorted page indexes as runs [first, last]: a gap of at most `gap` pages read through, a run at most `maxRun` pages long. */
function pageRuns(wanted: readonly number[], gap: number, maxRun: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < wanted.length; ) {
    const first = wanted[i];
    let last = first;
    while (i + 1 < wanted.length && wanted[i + 1] - last - 1 <= gap && wanted[i + 1] - first < maxRun) last = wanted[++i];
    i++;
    runs.push([first, last]);
  }
  return runs;
}

/**
 * Runs merged across their smallest gaps (the fewest pages read through) until at most `limit`
 * remain — one request's ranges — or no two neighbours fit in `maxRun` pages together.
 */
function fitRuns(runs: Array<[number, number]>, limit: number, maxRun: number): Array<[number, number]> {
  while (runs.length > limit) {
    let best = -1;
    for (let i = 0; i + 1 < runs.length; i++) {
      if (runs[i + 1][1] - runs[i][0] >= maxRun) continue;
      if (best < 0 || runs[i + 1][0] - runs[i][1] < runs[best + 1][0] - runs[best][1]) best = i;
    }
    if (best < 0) break;
    runs.splice(best, 2, [runs[best][0], runs[best + 1][1]]);
  }
  return runs;
}

export class RemoteFile {
  readonly stats: RemoteStats = { requests: 0, bytes: 0, pageReads: 0, cacheHits: 0 };
  /** Set once a reply disagreed with the probe: every later read fails the same way. */
  private failure: HciError | null = null;
  private readonly pages = new Map<number, Uint8Array>();
  private cachedBytes = 0;
  private readonly heads: ReadHead[] = [];
  private lastReply = 0;
  private readonly opts: Required<Omit<RemoteFileOptions, 'now' | 'onPages'>> & Pick<RemoteFileOptions, 'onPages'> & { now: () => number };

  private constructor(
    readonly url: string,
    private readonly reader: RangeReader,
    readonly size: number,
    readonly pageSize: number,
    private readonly validator: string | null,
    opts: RemoteFileOptions,
  ) {
    this.opts = {
      cacheBytes: opts.cacheBytes ?? 32 << 20,
      maxReadAhead: opts.maxReadAhead ?? 1 << 20,
      probeBytes: opts.probeBytes ?? 65536,
      prefetchGapBytes: opts.prefetchGapBytes ?? 32768,
      maxRangesPerRequest: opts.maxRangesPerRequest ?? 64,
      revalidateMs: opts.revalidateMs ?? 5000,
      now: opts.now ?? (() => Date.now()),
      onPages: opts.onPages,
    };
  }

  /**
   * Reads the first range and checks it is an SQLite database served in ranges. Throws HciError
   * (`remote_unreachable`, `remote_no_ranges`, `index_unrecognized`) when not.
   */
  static open(url: string, reader: RangeReader, opts: RemoteFileOptions = {}): RemoteFile {
    const probe = opts.probeBytes ?? 65536;
    const reply = reader.read(url, 0, probe - 1);
    if (reply.status !== 206 || !reply.bytes) {
      if (reply.status === 416) throw new HciError('index_unrecognized', `${url} is empty`, 'pack the index again (hci pack) and publish the file');
      throw remoteError(url, reply);
    }
    const head = reply.bytes;
    if (head.length < 100 || new TextDecoder().decode(head.subarray(0, 16)) !== SQLITE_MAGIC) {
      throw new HciError('index_unrecognized', `${url} is not an SQLite database`, 'the URL names the packed .sqlite file that `hci pack --out` wrote');
    }
    const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
    const rawPage = dv.getUint16(16);
    const pageSize = rawPage === 1 ? 65536 : rawPage;
    // The header's page count is valid when its "version-valid-for" equals the change counter.
    const pagesInHeader = dv.getUint32(92) === dv.getUint32(24) ? dv.getUint32(28) : 0;
    const size = reply.size ?? pagesInHeader * pageSize;
    if (!size) throw new HciError('index_unrecognized', `the size of ${url} is unknown (no Content-Range, no page count in its header)`, 'pack the index with `hci pack`, which writes both');
    const file = new RemoteFile(url, reader, size, pageSize, validatorOf(reply), opts);
    file.count(reply);
    file.lastReply = file.opts.now();
    file.store(0, head.subarray(0, Math.min(head.length, size)));
    return file;
  }

  /** Why reads fail now (a changed file), or null. */
  get failed(): HciError | null {
    return this.failure;
  }

  /** The failure behind the last I/O error SQLite got from this file (then forgotten, unless the file changed), or null. */
  takeError(): HciError | null {
    const e = this.failure ?? this.last;
    this.last = null;
    return e;
  }

  private last: HciError | null = null;

  /** Copies `dest.length` bytes from `offset`; returns how many the file holds there (fewer at its end). */
  read(dest: Uint8Array, offset: number): number {
    if (this.failure) throw this.failure;
    const end = Math.min(offset + dest.length, this.size);
    if (end <= offset) return 0;
    const first = Math.floor(offset / this.pageSize);
    const last = Math.floor((end - 1) / this.pageSize);
    this.stats.pageReads += last - first + 1;
    for (let p = first; p <= last; p++) {
      let page = this.touch(p);
      if (page) this.stats.cacheHits++;
      else page = this.fetchFrom(p);
      this.noteChildren(p, page);
      const pageStart = p * this.pageSize;
      const from = Math.max(offset, pageStart) - pageStart;
      const to = Math.min(end, pageStart + page.length) - pageStart;
      dest.set(page.subarray(from, to), Math.max(offset, pageStart) - offset);
    }
    this.advanceHead(first, last);
    return end - offset;
  }

  /** Page n (1-based, as SQLite numbers them), from the cache or one request (no read-ahead). */
  page(n: number): Uint8Array {
    if (this.failure) throw this.failure;
    const p = n - 1;
    const cached = this.touch(p);
    if (cached) return cached;
    return this.store(p, this.request(p * this.pageSize, Math.min(this.size, (p + 1) * this.pageSize) - 1));
  }

  /** Whether the server answers several ranges in one request (null until a batch asked it). */
  get manyRanges(): boolean | null {
    return this.multiRange;
  }

  /** Page n (1-based) when the cache holds it (no request, the LRU order unchanged), else undefined. */
  cached(n: number): Uint8Array | undefined {
    return this.failure ? undefined : this.pages.get(n - 1);
  }

  /**
   * Fetches pages about to be read (1-based numbers, as SQLite's; any order, cached ones skipped) in
   * as few requests as it can: pages in order, a gap of at most prefetchGapBytes read through, a
   * request at most maxReadAhead long. Returns the number of requests made.
   */
  prefetch(pageNumbers: Iterable<number>): number {
    if (this.failure) throw this.failure;
    return this.fetchPages([...pageNumbers].map((n) => n - 1));
  }

  /**
   * prefetch() of 0-based page indexes. Over a server that answers several ranges in one request
   * (or not known yet not to), a gap between wanted pages costs a range, not a request: no page is
   * read through but as far as one request's ranges (maxRangesPerRequest) need, the smallest gaps
   * first. Over one that answers one range per request, gaps up to prefetchGapBytes are read
   * through (fewer requests in flight). Avalonia at 16 KB pages, first query: 2.3/1.8/3.4/1.9 →
   * 1.8/1.5/2.9/1.6 MB per kind, the same requests (bench/results/remote-Avalonia-fed12.md).
   * `readThroughGaps`: small gaps read through whatever the server (a scan's next siblings).
   */
  private fetchPages(pageIndexes: readonly number[], readThroughGaps = false): number {
    const pagesTotal = Math.ceil(this.size / this.pageSize);
    const wanted = [...new Set(pageIndexes)].filter((p) => p >= 0 && p < pagesTotal && !this.pages.has(p)).sort((a, b) => a - b);
    const batched = !readThroughGaps && this.reader.readRanges !== undefined && this.multiRange !== false;
    const maxRun = Math.max(1, Math.floor(this.opts.maxReadAhead / this.pageSize));
    const runs = batched
      ? fitRuns(pageRuns(wanted, 0, maxRun), this.opts.maxRangesPerRequest, maxRun)
      : pageRuns(wanted, Math.floor(this.opts.prefetchGapBytes / this.pageSize), maxRun);
    if (runs.length > 1 && this.reader.readRanges) return this.fetchRuns(runs);
    for (const [first, last] of runs) this.store(first, this.request(...this.byteRange(first, last)));
    return runs.length;
  }

  /** The bytes (first and last, inclusive) of a run of pages (0-based, first and last). */
  private byteRange(first: number, last: number): readonly [number, number] {
    return [first * this.pageSize, Math.min(this.size, (last + 1) * this.pageSize) - 1];
  }

  /** Whether the server answers a multi-range request with its parts (null until one was asked). */
  private multiRange: boolean | null = null;

  /**
   * Runs of pages (0-based, first and last) in batches (readRanges): maxRangesPerRequest at most
   * each; one request per batch where the server answers multi-range requests, else the batch's
   * requests all in flight at once. Returns the number of HTTP requests made.
   */
  private fetchRuns(runs: ReadonlyArray<readonly [number, number]>): number {
    let requests = 0;
    for (let i = 0; i < runs.length; i += this.opts.maxRangesPerRequest) {
      const batch = runs.slice(i, i + this.opts.maxRangesPerRequest);
      const ranges = batch.map(([first, last]) => this.byteRange(first, last));
      const reply = this.reader.readRanges!(this.url, ranges, this.multiRange !== false);
      if (reply.multi !== null) this.multiRange = reply.multi;
      this.stats.requests += reply.requests;
      requests += reply.requests;
      if (reply.status !== 206 || !reply.parts) {
        const single: RangeReply = { status: reply.status, bytes: null, etag: reply.etag, lastModified: reply.lastModified, size: reply.size, ...(reply.error ? { error: reply.error } : {}) };
        throw this.fail(remoteError(this.url, single), reply.status === 412);
      }
      this.check({ ...reply, bytes: null });
      batch.forEach(([first], k) => {
        this.stats.bytes += reply.parts![k].length;
        this.store(first, reply.parts![k]);
      });
    }
    return requests;
  }

  /**
   * Called as a read transaction starts: when the last reply is older than revalidateMs, one small
   * range request checks the file is still the one the probe saw (throws `remote_changed`).
   */
  revalidate(): void {
    if (this.failure) throw this.failure;
    if (this.opts.now() - this.lastReply < this.opts.revalidateMs) return;
    this.request(0, 99);
  }

  /** A page from the cache (moved to the LRU end), or undefined. */
  private touch(p: number): Uint8Array | undefined {
    const page = this.pages.get(p);
    if (page) {
      this.pages.delete(p);
      this.pages.set(p, page);
    }
    return page;
  }

  /**
   * Per page read so far under an interior B-tree page: its siblings in key order (0-based page
   * numbers) and its place among them — where a scan that reads it goes next.
   */
  private readonly siblings = new Map<number, { list: number[]; at: number }>();
  private readonly parsedInterior = new Set<number>();

  /** Remembers the children of an interior page SQLite read (before any of them). */
  private noteChildren(p: number, page: Uint8Array): void {
    if (this.parsedInterior.has(p)) return;
    const children = interiorChildren(page, p + 1);
    if (!children) return;
    this.parsedInterior.add(p);
    const list = children.map((c) => c - 1);
    list.forEach((c, at) => this.siblings.set(c, { list, at }));
  }

  /**
   * Fetches page p and the pages after it that its read head expects next (not cached yet); returns
   * page p. A head in a scan of a B-tree whose parent page was read reads ahead the next siblings
   * (coalesced as a prefetch): never past the parent's last child into another B-tree.
   */
  private fetchFrom(p: number): Uint8Array {
    const head = this.heads.find((h) => this.continues(h, p));
    const pagesTotal = Math.ceil(this.size / this.pageSize);
    const maxRun = Math.max(1, Math.floor(this.opts.maxReadAhead / this.pageSize));
    const sib = head && head.run > 1 ? this.siblings.get(p) : undefined;
    if (sib) {
      // As many pages as the head's run spans from p (overflow pages between siblings count).
      const span = Math.min(head!.run, maxRun);
      const next: number[] = [];
      for (let i = sib.at; i < sib.list.length && sib.list[i] >= p && sib.list[i] - p < span; i++) next.push(sib.list[i]);
      // Small gaps read through whatever the server: what lies between siblings is mostly the scanned rows' overflow.
      this.fetchPages(next, true);
      const page = this.touch(p);
      if (page) return page;
    }
    let run = Math.min(head ? head.run : 1, maxRun, pagesTotal - p);
    for (let i = 1; i < run; i++) {
      if (this.pages.has(p + i)) {
        run = i;
        break;
      }
    }
    const start = p * this.pageSize;
    const end = Math.min(this.size, (p + run) * this.pageSize) - 1;
    return this.store(p, this.request(start, end));
  }

  /** The read heads: a read that continues one lengthens its next run by the pages read; any other read starts a new one (LRU of HEADS). */
  private advanceHead(first: number, last: number): void {
    const now = ++this.clock;
    const head = this.heads.find((h) => this.continues(h, first) || h.next === last);
    if (head) {
      head.run = Math.min(head.run + last - first + 1, 1 << 12);
      head.next = last + 1;
      head.used = now;
      return;
    }
    const fresh: ReadHead = { next: last + 1, run: 1, used: now };
    if (this.heads.length < HEADS) this.heads.push(fresh);
    else this.heads.sort((a, b) => a.used - b.used)[0] = fresh;
  }

  private clock = 0;

  /** Whether a read of page p goes on where head h stopped: at its next page, or a gap of at most prefetchGapBytes after it. */
  private continues(h: ReadHead, p: number): boolean {
    return p >= h.next && (p - h.next) * this.pageSize <= this.opts.prefetchGapBytes;
  }

  /** One range request, checked: a 206 of the asked length from the same file. */
  private request(start: number, end: number): Uint8Array {
    const reply = this.reader.read(this.url, start, end);
    this.count(reply);
    if (reply.status !== 206 || !reply.bytes) throw this.fail(remoteError(this.url, reply), reply.status === 412);
    this.check(reply);
    if (reply.bytes.length !== end - start + 1) throw this.fail(new HciError('remote_unreachable', `${this.url} answered ${reply.bytes.length} bytes for a range of ${end - start + 1}`, 'check the server: it cut the range short'), false);
    return reply.bytes;
  }

  /** Checks a reply comes from the file the probe saw (its validator and size): else `remote_changed`, for good. */
  private check(reply: RangeReply): void {
    const v = validatorOf(reply);
    if ((v !== null && this.validator !== null && v !== this.validator) || (reply.size !== null && reply.size !== this.size)) {
      throw this.fail(changed(this.url, v !== this.validator ? `${reply.etag ? 'ETag' : 'Last-Modified'} ${v?.replace(/^lm:/, '')} is not ${this.validator?.replace(/^lm:/, '')}` : `its size is now ${reply.size} bytes, not ${this.size}`), true);
    }
    this.lastReply = this.opts.now();
  }

  /** A failure for the caller; a changed file keeps failing (the VFS reports it; the next open reads the new file). */
  private fail(e: HciError, sticky: boolean): HciError {
    if (sticky) this.failure = e;
    this.last = e;
    return e;
  }

  private count(reply: RangeReply): void {
    this.stats.requests++;
    this.stats.bytes += reply.bytes?.length ?? 0;
  }

  /**
   * Cuts a run of bytes from page `first` on into pages and caches them, dropping the least recently
   * used past the budget (a cache smaller than the run keeps its last pages); returns page `first`.
   */
  private store(first: number, bytes: Uint8Array): Uint8Array {
    this.opts.onPages?.(first, Math.ceil(bytes.length / this.pageSize));
    const firstPage = bytes.subarray(0, Math.min(bytes.length, this.pageSize));
    for (let i = 0; i * this.pageSize < bytes.length; i++) {
      const page = bytes.subarray(i * this.pageSize, Math.min(bytes.length, (i + 1) * this.pageSize));
      const old = this.pages.get(first + i);
      if (old) this.cachedBytes -= old.length;
      this.pages.delete(first + i);
      this.pages.set(first + i, page);
      this.cachedBytes += page.length;
    }
    for (const [p, page] of this.pages) {
      if (this.cachedBytes <= this.opts.cacheBytes) break;
      this.pages.delete(p);
      this.cachedBytes -= page.length;
    }
    return firstPage;
  }

  close(): void {
    this.pages.clear();
    this.cachedBytes = 0;
  }
}
