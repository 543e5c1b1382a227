// TOML outlines with a line scanner: tables (`[tool.release]`), arrays of tables (`[[targets]]`,
// numbered `targets[0]`, `targets[1]` …) and their keys, plus the keys before the first table. The
// scanner tracks multi-line strings (`"""`, `'''`), quoted strings and bracket depth, so a `[` line
// inside a multi-line string or a multi-line array is never taken for a table header.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { Facts, lastContentLine } from './lite.ts';

const BARE = /[A-Za-z0-9_-]/;

/** Splits a (dotted) TOML key into its parts: `a."b.c".d` → [a, b.c, d]. */
export function tomlKey(raw: string): string[] {
  const parts: string[] = [];
  let i = 0;
  const s = raw.trim();
  while (i < s.length) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    let part = '';
    if (s[i] === '"' || s[i] === "'") {
      const q = s[i++];
      while (i < s.length && s[i] !== q) {
        if (q === '"' && s[i] === '\\' && i + 1 < s.length) i++;
        part += s[i++];
      }
      i++;
    } else {
      while (i < s.length && BARE.test(s[i])) part += s[i++];
    }
    parts.push(part);
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (s[i] === '.') i++;
    else break;
  }
  return parts;
}

function join(parts: string[]): string {
  return parts.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p))).join('.');
}

type Mode = 'normal' | 'ml-basic' | 'ml-literal';

/** Scans one line from `mode`, returning the mode and bracket depth at its end. */
function scanLine(line: string, mode: Mode, depth: number): { mode: Mode; depth: number } {
  let i = 0;
  while (i < line.length) {
    if (mode === 'ml-basic') {
      const j = line.indexOf('"""', i);
      if (j < 0) return { mode, depth };
      let bs = 0;
      for (let k = j - 1; k >= 0 && line[k] === '\\'; k--) bs++;
      if (bs % 2 === 1) {
        i = j + 1;
        continue;
      }
      // Up to two more quotes may belong to the string itself ("""" ends with a quote in it).
      i = j + 3;
      while (line[i] === '"') i++;
      mode = 'normal';
      continue;
    }
    if (mode === 'ml-literal') {
      const j = line.indexOf("'''", i);
      if (j < 0) return { mode, depth };
      i = j + 3;
      while (line[i] === "'") i++;
      mode = 'normal';
      continue;
    }
    const c = line[i];
    if (c === '#') break;
    if (line.startsWith('"""', i)) {
      mode = 'ml-basic';
      i += 3;
    } else if (line.startsWith("'''", i)) {
      mode = 'ml-literal';
      i += 3;
    } else if (c === '"') {
      i++;
      while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === "'") {
      const j = line.indexOf("'", i + 1);
      i = j < 0 ? line.length : j + 1;
    } else {
      if (c === '[' || c === '{') depth++;
      else if ((c === ']' || c === '}') && depth > 0) depth--;
      i++;
    }
  }
  return { mode, depth };
}

const HEADER = /^\s*(\[\[?)\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*(\]\]?)\s*(?:#.*)?$/;
const KEY = /^\s*((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*'))*)\s*=/;

export async function extractToml(input: ChunkInput): Promise<FileOutline | null> {
  const lines = input.lines;
  const nodes: OutlineNode[] = [];
  const arrayCounts = new Map<string, number>();
  let table: { node: OutlineNode; header: string; facts: Facts } | null = null;
  let key: OutlineNode | null = null;
  let mode: Mode = 'normal';
  let depth = 0;
  const isComment = (t: string) => t.startsWith('#');
  const closeTable = (before: number) => {
    if (!table) return;
    table.node.endLine = lastContentLine(lines, before, table.node.startLine, isComment);
    const f = table.facts.result();
    if (f) table.node.facts = f;
    if (table.node.children.length) {
      table.node.role = 'container';
      table.node.context = table.header;
    }
    table = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const n = i + 1;
    if (mode === 'normal' && depth === 0) {
      const h = HEADER.exec(line);
      if (h && (h[1] === '[[') === (h[3] === ']]')) {
        closeTable(n - 1);
        const path = tomlKey(h[2]);
        const plain = join(path);
        let name = plain;
        let kind = 'table';
        if (h[1] === '[[') {
          const k = arrayCounts.get(plain) ?? 0;
          arrayCounts.set(plain, k + 1);
          name = `${plain}[${k}]`;
          kind = 'array-table';
        }
        const node: OutlineNode = { kind, name, memberKey: name, startLine: n, endLine: n, role: 'unit', children: [] };
        nodes.push(node);
        table = { node, header: h[1] === '[[' ? `[[${plain}]]` : `[${plain}]`, facts: new Facts() };
        key = null;
        continue;
      }
      const k = KEY.exec(line);
      if (k) {
        const parts = tomlKey(k[1]);
        const full = table ? `${table.node.name}.${join(parts)}` : join(parts);
        key = { kind: 'key', name: full, memberKey: full, startLine: n, endLine: n, role: 'unit', children: [] };
        (table ? table.node.children : nodes).push(key);
        table?.facts.add(full);
      }
    }
    const r = scanLine(line, mode, depth);
    mode = r.mode;
    depth = r.depth;
    if (key) {
      key.endLine = n;
      if (mode === 'normal' && depth === 0) key = null;
    }
  }
  closeTable(lines.length);
  return nodes.length ? { nodes } : null;
}
