// Which pages of an SQLite file hold given rows of a rowid table, found by reading the table's
// B-tree in JavaScript (the file format, https://www.sqlite.org/fileformat2.html#b_tree_pages): the
// interior pages' keys lead to the leaves, and a leaf's cell for a row says whether its payload goes
// on in overflow pages. What a remote index (http-vfs.ts) asks before a search reads rows by id — the
// candidates' chunks, their files' stored text — so those pages come in a few coalesced range
// requests instead of one request per page as SQLite reads them; and an interior page's children,
// the pages a scan that reached one of them reads next (remote-file.ts's read-ahead). Owns only
// that parsing; reading a page
// is the caller's (remote-file.ts's cache), and a page that does not parse as expected ends the walk
// there (a prefetch is a guess: SQLite still reads every page it needs itself).

/** Reads page `n` (1-based), whole. */
export type PageSource = (n: number) => Uint8Array;

const INTERIOR_TABLE = 0x05;
const INTERIOR_INDEX = 0x02;
const LEAF_TABLE = 0x0d;

export interface RowPages {
  /** Leaf pages holding the rows. */
  leaves: number[];
  /** Overflow pages the rows' payloads are expected on (the first of each chain and the pages after it, as a packed file lays them out). */
  overflow: number[];
}

function varint(b: Uint8Array, at: number): [value: number, next: number] {
  let v = 0;
  for (let n = 0; n < 9; n++) {
    const c = b[at + n];
    if (n === 8) return [v * 256 + c, at + 9];
    v = v * 128 + (c & 0x7f);
    if (!(c & 0x80)) return [v, at + n + 1];
  }
  return [v, at + 9];
}

const u16 = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];

/**
 * Fetches the pages holding `rowids` of the rowid table whose B-tree root is `root`, one level of
 * the tree at a time: each level's pages in one `fetch` (the caller coalesces them into few
 * requests), then read from its cache to find the next level's. `usable`: the page size less the
 * reserved bytes (file header offset 20). Pages that do not parse as a table's end the walk there.
 * Returns the leaves and the overflow pages it fetched.
 */
export function fetchRowPages(read: PageSource, fetch: (pages: readonly number[]) => void, root: number, rowids: readonly number[], usable: number): RowPages {
  const out: RowPages = { leaves: [], overflow: [] };
  let level: Level = [{ page: root, ids: [...new Set(rowids)].sort((a, b) => a - b) }];
  for (let depth = 0; level.length && depth < 20; depth++) {
    fetch(level.map((l) => l.page));
    const next: Level = [];
    for (const { page, ids } of level) descend(read(page), page, ids, usable, next, out);
    level = next;
  }
  if (out.overflow.length) fetch(out.overflow);
  return out;
}

type Level = Array<{ page: number; ids: number[] }>;

/** One page of a walk to `ids`: a leaf's wanted overflow pages into `out`, an interior page's children that lead to them into `next`. */
function descend(b: Uint8Array, page: number, ids: number[], usable: number, next: Level, out: RowPages): void {
  const h = page === 1 ? 100 : 0;
  const flag = b[h];
  if (flag === LEAF_TABLE) {
    out.leaves.push(page);
    overflowOf(b, h, ids, usable, out.overflow);
    return;
  }
  if (flag !== INTERIOR_TABLE) return;
  const cells = u16(b, h + 3);
  let i = 0;
  for (let c = 0; c < cells && i < ids.length; c++) {
    const at = u16(b, h + 12 + 2 * c);
    const child = u32(b, at);
    const [key] = varint(b, at + 4);
    const from = i;
    while (i < ids.length && ids[i] <= key) i++;
    if (i > from) next.push({ page: child, ids: ids.slice(from, i) });
  }
  if (i < ids.length) next.push({ page: u32(b, h + 8), ids: ids.slice(i) });
}

/**
 * The pages a walk to `rowids` needs next, as far as the pages already at hand (`cached`: undefined
 * for one not fetched yet) lead: the first page of each branch not at hand, and the overflow pages
 * of the wanted rows on leaves at hand — what one request can bring of several walks at once.
 */
export function nextRowPages(cached: (n: number) => Uint8Array | undefined, root: number, rowids: readonly number[], usable: number): number[] {
  const missing: number[] = [];
  const out: RowPages = { leaves: [], overflow: [] };
  let level: Level = [{ page: root, ids: [...new Set(rowids)].sort((a, b) => a - b) }];
  for (let depth = 0; level.length && depth < 20; depth++) {
    const next: Level = [];
    for (const { page, ids } of level) {
      const b = cached(page);
      if (b) descend(b, page, ids, usable, next, out);
      else missing.push(page);
    }
    level = next;
  }
  return [...missing, ...out.overflow.filter((p) => !cached(p))];
}

/** For the cells of a table leaf whose rowid is wanted and whose payload overflows: the pages its overflow is expected on. */
function overflowOf(b: Uint8Array, h: number, ids: readonly number[], usable: number, into: number[]): void {
  const want = new Set(ids);
  const cells = u16(b, h + 3);
  const maxLocal = usable - 35;
  const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
  for (let c = 0; c < cells; c++) {
    const at = u16(b, h + 8 + 2 * c);
    const [size, afterSize] = varint(b, at);
    const [rowid, payload] = varint(b, afterSize);
    if (!want.has(rowid) || size <= maxLocal) continue;
    const k = minLocal + ((size - minLocal) % (usable - 4));
    const local = k <= maxLocal ? k : minLocal;
    if (payload + local + 4 > b.length) continue;
    const first = u32(b, payload + local);
    const pages = Math.ceil((size - local) / (usable - 4));
    for (let p = 0; p < pages; p++) into.push(first + p);
  }
}

/**
 * The children of an interior B-tree page (a table's or an index's), in key order — the order a
 * scan reads them in — or null for any other page. `page` is its number (1-based: page 1 holds the
 * file header first).
 */
export function interiorChildren(b: Uint8Array, page: number): number[] | null {
  const h = page === 1 ? 100 : 0;
  if (b.length < h + 12 || (b[h] !== INTERIOR_TABLE && b[h] !== INTERIOR_INDEX)) return null;
  const cells = u16(b, h + 3);
  if (h + 12 + 2 * cells > b.length) return null;
  const out: number[] = [];
  for (let c = 0; c < cells; c++) {
    const at = u16(b, h + 12 + 2 * c);
    if (at + 4 > b.length) return null;
    out.push(u32(b, at));
  }
  out.push(u32(b, h + 8));
  return out;
}
