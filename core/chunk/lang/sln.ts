// Solution outlines. `.sln` (text): `Project("{type}") = "Name", "path", "{guid}"` … `EndProject`
// blocks (solution folders told apart by their type GUID) and the `Global` block with its
// `GlobalSection(…)` children — a line scanner, tolerant of missing End lines. `.slnx` (XML, via
// xml-util.ts): `<Folder Name=…>` containers holding `<Project Path=…>` units and `<File>` facts.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { Facts, rollUpFacts, stem } from './lite.ts';
import { attr, parseXml, type XElement } from './xml-util.ts';

const SOLUTION_FOLDER = '2150E333-8FDC-42A3-9474-1A3956D46DE8';
const PROJECT_LINE = /^\s*Project\("\{([0-9A-Fa-f-]+)\}"\)\s*=\s*"([^"]*)"\s*,\s*"([^"]*)"\s*,\s*"(\{[0-9A-Fa-f-]+\})"/;
const GLOBAL_SECTION = /^\s*GlobalSection\(([^)]*)\)/;

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export async function extractSln(input: ChunkInput): Promise<FileOutline | null> {
  const lines = input.lines;
  const nodes: OutlineNode[] = [];
  const names = new Map<string, string>();
  let open: { node: OutlineNode; facts: Facts } | null = null;
  let global: OutlineNode | null = null;
  let section: { node: OutlineNode; facts: Facts; name: string } | null = null;
  const nested: Array<[string, string]> = [];
  const deps: Array<[Facts, string]> = [];
  let projectSection = '';
  const projects: Array<{ node: OutlineNode; facts: Facts }> = [];
  const closeProject = (end: number) => {
    if (!open) return;
    open.node.endLine = Math.max(open.node.startLine, end);
    projects.push(open);
    open = null;
    projectSection = '';
  };
  const closeSection = (end: number) => {
    if (!section) return;
    section.node.endLine = Math.max(section.node.startLine, end);
    const f = section.facts.result();
    if (f) section.node.facts = f;
    section = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const n = i + 1;
    const p = PROJECT_LINE.exec(line);
    if (p) {
      closeProject(n - 1);
      const folder = p[1].toUpperCase() === SOLUTION_FOLDER;
      const facts = new Facts();
      if (!folder) facts.add(`Path=${p[3]}`);
      facts.add(`ProjectGuid=${p[4].toUpperCase()}`);
      names.set(p[4].toUpperCase(), p[2]);
      const node: OutlineNode = { kind: folder ? 'folder' : 'project', name: p[2], startLine: n, endLine: n, role: 'unit', children: [] };
      nodes.push(node);
      open = { node, facts };
      continue;
    }
    const t = line.trim();
    if (open) {
      const ps = /^ProjectSection\(([^)]*)\)/.exec(t);
      if (t === 'EndProject') closeProject(n);
      else if (ps) projectSection = ps[1];
      else if (t === 'EndProjectSection') projectSection = '';
      else {
        const item = /^([^=]+?)\s*=\s*(.+)$/.exec(t);
        if (item && projectSection === 'SolutionItems') open.facts.add(`File=${item[1]}`);
        else if (item && projectSection === 'ProjectDependencies') deps.push([open.facts, item[1].toUpperCase()]);
      }
      continue;
    }
    if (t === 'Global') {
      global = { kind: 'global', name: 'Global', startLine: n, endLine: n, role: 'container', context: 'Global', children: [] };
      nodes.push(global);
      continue;
    }
    if (!global) continue;
    const g = GLOBAL_SECTION.exec(line);
    if (g) {
      closeSection(n - 1);
      const node: OutlineNode = { kind: 'section', name: g[1], startLine: n, endLine: n, role: 'unit', children: [] };
      global.children.push(node);
      section = { node, facts: new Facts(), name: g[1] };
      continue;
    }
    if (t === 'EndGlobalSection') closeSection(n);
    else if (t === 'EndGlobal') {
      closeSection(n - 1);
      global.endLine = n;
      global = null;
    } else if (section?.name === 'NestedProjects') {
      const m = /^(\{[0-9A-Fa-f-]+\})\s*=\s*(\{[0-9A-Fa-f-]+\})$/.exec(t);
      if (m) nested.push([m[1].toUpperCase(), m[2].toUpperCase()]);
    }
  }
  closeProject(lines.length);
  closeSection(lines.length);
  if (global) global.endLine = Math.max(global.endLine, lines.length, ...global.children.map((c) => c.endLine));
  // Dependencies and nesting read better as names than as GUIDs; every project is known by now.
  for (const [facts, guid] of deps) facts.add(`DependsOn=${names.get(guid) ?? guid}`);
  for (const p of projects) {
    const f = p.facts.result();
    if (f) p.node.facts = f;
  }
  // Nesting reads better as names than as GUIDs (`Contoso.Shop.Domain in src`); every project is known by now.
  for (const node of nodes) {
    if (node.kind !== 'global') continue;
    for (const s of node.children) {
      if (s.name !== 'NestedProjects' || !nested.length) continue;
      const facts = new Facts();
      for (const [c, p] of nested) facts.add(`${names.get(c) ?? c} in ${names.get(p) ?? p}`);
      s.facts = facts.result();
    }
    if (!node.children.length) node.role = 'unit';
  }
  if (!nodes.length) return null;
  rollUpFacts(nodes);
  return { nodes, fileContext: [`Solution ${fileName(input.path)}`] };
}

function slnxChildren(el: XElement): { nodes: OutlineNode[]; facts: Facts } {
  const nodes: OutlineNode[] = [];
  const facts = new Facts();
  for (const c of el.children) {
    if (c.name === 'Folder') {
      const inner = slnxChildren(c);
      const name = attr(c, 'Name') ?? 'Folder';
      const f = inner.facts.result();
      nodes.push({
        kind: 'folder',
        name,
        startLine: c.start,
        endLine: c.end,
        role: inner.nodes.length ? 'container' : 'unit',
        ...(inner.nodes.length ? { context: `Folder ${name}` } : {}),
        ...(f ? { facts: f } : {}),
        children: inner.nodes,
      });
    } else if (c.name === 'Project') {
      const path = attr(c, 'Path') ?? '';
      const pf = new Facts();
      pf.add(`Path=${path}`);
      for (const a of c.attrs) if (a.name !== 'Path') pf.add(`${a.name}=${a.value}`);
      for (const d of c.children) pf.add(`${d.name}=${attr(d, 'Project') ?? attr(d, 'Solution') ?? attr(d, 'Path') ?? d.text}`);
      nodes.push({ kind: 'project', name: stem(path.replace(/\\/g, '/')) || path, startLine: c.start, endLine: c.end, role: 'unit', facts: pf.result(), children: [] });
    } else if (c.name === 'File') {
      facts.add(`File=${attr(c, 'Path') ?? ''}`);
    } else {
      const f = new Facts();
      for (const d of c.children) f.add(`${d.name}=${attr(d, 'Name') ?? attr(d, 'Project') ?? d.text}`);
      nodes.push({ kind: c.name.toLowerCase(), name: c.name, startLine: c.start, endLine: c.end, role: 'unit', ...(f.result() ? { facts: f.result() } : {}), children: [] });
    }
  }
  return { nodes, facts };
}

export async function extractSlnx(input: ChunkInput): Promise<FileOutline | null> {
  const doc = parseXml(input.text);
  if (!doc) return null;
  const nodes: OutlineNode[] = [];
  for (const root of doc.roots) {
    const inner = slnxChildren(root);
    const f = inner.facts.result();
    nodes.push({
      kind: 'solution',
      name: fileName(input.path),
      startLine: root.start,
      endLine: root.end,
      role: 'container',
      context: `Solution ${fileName(input.path)}`,
      ...(f ? { facts: f } : {}),
      children: inner.nodes,
    });
  }
  rollUpFacts(nodes);
  return { nodes };
}
