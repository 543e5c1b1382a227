// .editorconfig outlines with a line scanner: the preamble keys (`root = true`) and one unit per
// `[glob]` section, named by its glob, with its `key = value` pairs as facts.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { Facts, lastContentLine } from './lite.ts';

const SECTION = /^\s*\[(.+)\]\s*(?:[#;].*)?$/;
const PAIR = /^\s*([^=#;[\s][^=]*?)\s*=\s*(.*?)\s*$/;

export async function extractEditorconfig(input: ChunkInput): Promise<FileOutline | null> {
  const lines = input.lines;
  const nodes: OutlineNode[] = [];
  let section: { node: OutlineNode; facts: Facts } | null = null;
  const isComment = (t: string) => t.startsWith('#') || t.startsWith(';');
  const close = (before: number) => {
    if (!section) return;
    section.node.endLine = lastContentLine(lines, before, section.node.startLine, isComment);
    const f = section.facts.result();
    if (f) section.node.facts = f;
    section = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const n = i + 1;
    const t = line.trim();
    if (t === '' || isComment(t)) continue;
    const s = SECTION.exec(line);
    if (s) {
      close(n - 1);
      const glob = s[1].trim();
      const node: OutlineNode = { kind: 'section', name: glob, memberKey: `[${glob}]`, startLine: n, endLine: n, role: 'unit', children: [] };
      nodes.push(node);
      section = { node, facts: new Facts(60) };
      continue;
    }
    const p = PAIR.exec(line);
    if (!p) continue;
    if (section) section.facts.add(`${p[1]}=${p[2]}`);
    else nodes.push({ kind: 'key', name: p[1], memberKey: p[1], startLine: n, endLine: n, role: 'unit', facts: [`${p[1]}=${p[2]}`], children: [] });
  }
  close(lines.length);
  return nodes.length ? { nodes } : null;
}
