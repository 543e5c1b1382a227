// JSON outlines (appsettings, manifests, data files): object members by key path
// (`ConnectionStrings.OrderingDb`, member key and fact in the .NET configuration form
// `ConnectionStrings:OrderingDb`), arrays with their object items by index (`products[3]`). Big
// files keep a bounded number of nodes: levels are added breadth-first until a node budget is spent.
//
// A hand-written scanner rather than the json grammar: a 500 KiB file takes the grammar 0.4–1 s to
// parse and as long again to walk through the WASM API, while this single pass takes milliseconds.
// It is lenient the way config files need: comments and trailing commas (JSONC) are fine, and broken
// input (a missing bracket, a stray token) still yields every member seen before and around it.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { Facts, clip } from './lite.ts';

/** At most this many outline nodes per file (whole levels are kept or dropped). */
const NODE_BUDGET = 2000;
/** Members of an array item become nodes only when the item is this big (else the item is the unit). */
const BIG_ITEM_LINES = 30;
const MAX_FACTS = 40;

type Seg = string | number;
const NONE: JEntry[] = [];

export interface JValue {
  kind: 'object' | 'array' | 'scalar';
  /** 1-based lines. */
  start: number;
  end: number;
  /** Object members (all), or array items that are objects or arrays (keyed by index). */
  entries: JEntry[];
}

export interface JEntry {
  key: Seg;
  start: number;
  end: number;
  value: JValue;
}

interface Frame {
  value: JValue;
  /** Entry in the parent that holds this value, if any. */
  entry: JEntry | null;
  key: string | null;
  keyLine: number;
  index: number;
  /** Object: a key is expected next (after `{` or `,`). */
  wantKey: boolean;
}

/** Scans JSON (with comments and trailing commas) into objects and arrays with line ranges; null if no object or array. */
export function scanJson(text: string): JValue | null {
  let i = 0;
  let line = 1;
  const n = text.length;
  const stack: Frame[] = [];
  let top: JValue | null = null;
  let lastContentLine = 1;

  /** Records a scalar where it stands: a member of an object gets an entry, an array item only counts. */
  const addScalar = (start: number, end: number) => {
    const f = stack[stack.length - 1];
    if (!f) return;
    if (f.value.kind === 'object') {
      if (f.key !== null) f.value.entries.push({ key: f.key, start: f.keyLine, end, value: { kind: 'scalar', start, end, entries: NONE } });
      f.key = null;
      f.wantKey = false;
    } else f.index++;
  };
  /** Records an object or array where it stands and returns the entry that holds it, if any. */
  const addValue = (value: JValue) => {
    const f = stack[stack.length - 1];
    if (!f) {
      top ??= value;
      return null;
    }
    let entry: JEntry | null = null;
    if (f.value.kind === 'object') {
      if (f.key !== null) {
        entry = { key: f.key, start: f.keyLine, end: value.end, value };
        f.value.entries.push(entry);
      }
      f.key = null;
      f.wantKey = false;
    } else {
      entry = { key: f.index, start: value.start, end: value.end, value };
      f.value.entries.push(entry);
      f.index++;
    }
    return entry;
  };
  const close = (kind: 'object' | 'array') => {
    // Close up to the nearest matching frame; a stray closer is ignored.
    let k = stack.length - 1;
    while (k >= 0 && stack[k].value.kind !== kind) k--;
    if (k < 0) return;
    while (stack.length > k) {
      const f = stack.pop()!;
      f.value.end = stack.length === k ? line : Math.max(f.value.start, lastContentLine);
      if (f.entry) f.entry.end = f.value.end;
    }
  };

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 0xfeff) {
      i++;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const j = text.indexOf('\n', i);
      i = j < 0 ? n : j;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const j = text.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      for (let k = i; k < end; k++) if (text.charCodeAt(k) === 10) line++;
      i = end;
      continue;
    }
    lastContentLine = line;
    if (c === 123 || c === 91) {
      // { or [
      const value: JValue = { kind: c === 123 ? 'object' : 'array', start: line, end: line, entries: [] };
      const entry = addValue(value);
      stack.push({ value, entry, key: null, keyLine: line, index: 0, wantKey: c === 123 });
      i++;
      continue;
    }
    if (c === 125 || c === 93) {
      close(c === 125 ? 'object' : 'array');
      i++;
      continue;
    }
    if (c === 44) {
      const f = stack[stack.length - 1];
      if (f?.value.kind === 'object') {
        f.wantKey = true;
        f.key = null;
      }
      i++;
      continue;
    }
    if (c === 58) {
      i++;
      continue;
    }
    if (c === 34 || c === 39) {
      // A string: a key where one is expected, else a scalar value.
      const startLine = line;
      const quote = c === 34 ? '"' : "'";
      let j = i + 1;
      for (;;) {
        const q = text.indexOf(quote, j);
        if (q < 0) {
          j = n;
          break;
        }
        let backslashes = 0;
        for (let k = q - 1; text.charCodeAt(k) === 92; k--) backslashes++;
        j = q;
        if (backslashes % 2 === 0) break;
        j = q + 1;
      }
      // Strings do not hold raw newlines in valid JSON; count any a broken file has.
      for (let k = text.indexOf('\n', i + 1); k >= 0 && k < j; k = text.indexOf('\n', k + 1)) line++;
      const raw = text.slice(i, Math.min(j + 1, n));
      i = j + 1;
      const f = stack[stack.length - 1];
      if (f?.value.kind === 'object' && f.wantKey) {
        let key = raw.slice(1, -1);
        if (c === 34 && key.includes('\\')) {
          try {
            key = JSON.parse(raw) as string;
          } catch {
            // keep the raw text
          }
        }
        f.key = key;
        f.keyLine = startLine;
        f.wantKey = false;
      } else addScalar(startLine, line);
      continue;
    }
    // A bare token: number, true/false/null, or (JSON5-ish) an unquoted key.
    let j = i;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (d === 44 || d === 58 || d === 93 || d === 125 || d === 123 || d === 91 || d === 32 || d === 9 || d === 10 || d === 13 || d === 34 || (d === 47 && (text.charCodeAt(j + 1) === 47 || text.charCodeAt(j + 1) === 42))) break;
      j++;
    }
    if (j === i) j = i + 1;
    const f = stack[stack.length - 1];
    if (f?.value.kind === 'object' && f.wantKey) {
      f.key = text.slice(i, j);
      f.keyLine = line;
      f.wantKey = false;
    } else if (!f && top === null && stack.length === 0) {
      return null; // top-level scalar or not JSON at all
    } else addScalar(line, line);
    i = j;
  }
  // Unclosed at the end of the input: close everything at the last line with content.
  while (stack.length) {
    const f = stack.pop()!;
    f.value.end = Math.max(f.value.start, lastContentLine);
    if (f.entry) f.entry.end = f.value.end;
  }
  return top;
}

function dotPath(path: Seg[]): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
  return s;
}

function colonPath(path: Seg[]): string {
  return path.join(':');
}

interface Entry {
  e: JEntry;
  path: Seg[];
}

function entriesOf(value: JValue, path: Seg[]): Entry[] {
  return value.entries.map((e) => ({ e, path: [...path, e.key] }));
}

function expandable({ e }: Entry): boolean {
  if (e.value.kind === 'scalar') return false;
  if (typeof e.key === 'number') return e.end - e.start + 1 > BIG_ITEM_LINES;
  return e.value.entries.length > 0;
}

/** Leaf key paths under an object (colon form), not descending into arrays; capped. */
function leafFacts(value: JValue, path: Seg[], facts: Facts): void {
  const work: Array<[JValue, Seg[]]> = [[value, path]];
  while (work.length && !facts.full) {
    const [v, p] = work.shift()!;
    if (v.kind !== 'object') continue;
    for (const m of v.entries) {
      const key = [...p, m.key];
      if (m.value.kind === 'object') work.push([m.value, key]);
      else facts.add(colonPath(key));
    }
  }
}

export function jsonOutline(top: JValue): OutlineNode[] {
  // Breadth-first: how many levels fit in the node budget?
  let level = entriesOf(top, []);
  let depth = 0;
  let used = level.length;
  for (;;) {
    const next = level.filter(expandable).flatMap((x) => entriesOf(x.e.value, x.path));
    if (!next.length || used + next.length > NODE_BUDGET) break;
    used += next.length;
    level = next;
    depth++;
  }
  const build = (x: Entry, d: number): OutlineNode => {
    const { e, path } = x;
    const children = d < depth && expandable(x) ? entriesOf(e.value, path).map((c) => build(c, d + 1)) : [];
    const name = clip(dotPath(path), 200);
    const facts = new Facts(MAX_FACTS);
    facts.add(colonPath(path));
    const item = typeof e.key === 'number';
    if (!item && e.value.kind === 'object') leafFacts(e.value, path, facts);
    return {
      kind: item ? 'item' : e.value.kind === 'scalar' ? 'key' : e.value.kind,
      name,
      memberKey: colonPath(path),
      startLine: e.start,
      endLine: Math.max(e.start, e.end),
      role: children.length ? 'container' : 'unit',
      ...(children.length ? { context: name } : {}),
      facts: facts.list,
      children,
    };
  };
  return entriesOf(top, []).map((x) => build(x, 0));
}

export async function extractJson(input: ChunkInput): Promise<FileOutline | null> {
  const top = scanJson(input.text);
  if (!top) return null;
  const nodes = jsonOutline(top);
  return nodes.length ? { nodes } : null;
}
