// YAML outlines through the yaml grammar: mappings by key path (`jobs.build.steps`), sequences of
// mappings by index and named by what they are — GitHub Actions jobs and steps (`name:`/`uses:`),
// Azure Pipelines stages/jobs/steps (`stage:`, `job:`, `displayName:`, `task:`), docker-compose
// services — with their path as member key (`jobs.build.steps[2]`). Broken YAML (the parser's error
// recovery is poor) falls back to a scan of the top-level keys: a partial outline, never a lost file.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import type { TreeSitterHost } from '../treesitter.ts';
import { Facts, clip, firstLine, kids, lastContentLine, lastLine, rollUpFacts, squash, toLite, type LiteNode } from './lite.ts';

const NODE_BUDGET = 2000;
const MAX_DEPTH = 8;
const BIG_ITEM_LINES = 30;
const SCALARS = new Set(['plain_scalar', 'double_quote_scalar', 'single_quote_scalar', 'block_scalar']);
const ITEM_NAME_KEYS = ['stage', 'job', 'deployment', 'name', 'displayName', 'task', 'uses', 'template', 'group', 'service', 'id', 'key'];
const SCRIPT_KEYS = ['run', 'script', 'bash', 'pwsh', 'powershell', 'checkout', 'download', 'publish'];
/** Sequence keys whose mapping items are pipeline structure (kind by parent key). */
const ITEM_KINDS: Record<string, string> = { stages: 'stage', jobs: 'job', steps: 'step', preSteps: 'step', postSteps: 'step' };
const STRUCTURE_KEYS = new Set(['stages', 'jobs', 'steps']);

type Seg = string | number;

function dotPath(path: Seg[]): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
  return s;
}

/** The scalar text of a flow node (quotes and block indicators removed), or null. */
function scalar(n: LiteNode | undefined): string | null {
  if (!n) return null;
  if (SCALARS.has(n.type)) {
    const t = n.text ?? '';
    if (n.type === 'double_quote_scalar') {
      try {
        return JSON.parse(t) as string;
      } catch {
        return t.slice(1, -1);
      }
    }
    if (n.type === 'single_quote_scalar') return t.slice(1, -1).replace(/''/g, "'");
    if (n.type === 'block_scalar') return t.replace(/^[|>][-+0-9]*\s*\n?/, '').trim();
    return t;
  }
  for (const c of n.children) {
    const s = scalar(c);
    if (s !== null) return s;
  }
  return null;
}

/** The scalar of a value node itself (not of anything nested in it), or null. */
function scalarValue(value: LiteNode | undefined): string | null {
  if (!value) return null;
  if (SCALARS.has(value.type)) return scalar(value);
  const c = value.children.find((x) => SCALARS.has(x.type));
  return c ? scalar(c) : null;
}

/** The mapping pairs or sequence items of a value node (block or flow), skipping anchors and tags. */
function inner(value: LiteNode | undefined): { pairs?: LiteNode[]; items?: LiteNode[] } {
  if (!value) return {};
  for (const c of kids(value)) {
    if (c.type === 'block_mapping' || c.type === 'flow_mapping') return { pairs: kids(c, 'block_mapping_pair', 'flow_pair') };
    if (c.type === 'block_sequence') return { items: kids(c, 'block_sequence_item').map((i) => kids(i)[0] ?? i) };
    if (c.type === 'flow_sequence') return { items: kids(c) };
  }
  return {};
}

function keyOf(pair: LiteNode): string {
  return scalar(pair.children.find((c) => c.field === 'key')) ?? '';
}

function valueOfPair(pair: LiteNode | undefined): LiteNode | undefined {
  return pair?.children.find((c) => c.field === 'value');
}

/** Last line of a node's content: trailing comments the grammar hangs on it do not count. */
function contentEnd(n: LiteNode): number {
  for (let i = n.children.length - 1; i >= 0; i--) {
    const c = n.children[i];
    if (c.type === 'comment' || (!c.named && c.startRow === c.endRow && c.endCol === 0)) continue;
    return Math.max(firstLine(n), contentEnd(c));
  }
  return lastLine(n);
}

/** `name=value` facts for the scalar members of a mapping (jobs, steps, services). */
function scalarFacts(pairs: LiteNode[], facts: Facts): void {
  for (const p of pairs) {
    const v = scalarValue(valueOfPair(p));
    const k = keyOf(p);
    if (v !== null && k && !v.includes('\n')) facts.add(`${k}=${clip(squash(v), 80)}`);
    else if (v !== null && k) facts.add(`${k}=${clip(squash(v.split('\n')[0]), 80)}`);
  }
}

/** What to call a sequence item: its `name:`/`displayName:`/`task:`/`uses:`… or the first line of its script. */
function itemName(pairs: LiteNode[]): string | null {
  const byKey = new Map(pairs.map((p) => [keyOf(p), p]));
  for (const k of ITEM_NAME_KEYS) {
    const v = scalarValue(valueOfPair(byKey.get(k)));
    if (v) return clip(squash(v), 80);
  }
  for (const k of SCRIPT_KEYS) {
    const v = scalarValue(valueOfPair(byKey.get(k)));
    if (v) return clip(`${k}: ${squash(v.split('\n')[0])}`, 80);
  }
  return null;
}

interface Walk {
  budget: number;
  special: (path: Seg[]) => string | null;
}

/**
 * The node(s) for one mapping pair. Inside jobs, stages and services only structure (mappings and
 * sequences) becomes nodes; their `steps:`/`jobs:` sequences are flattened so the outline reads
 * stage > job > step.
 */
function pairNodes(pair: LiteNode, path: Seg[], depth: number, w: Walk, parentSpecial: boolean): OutlineNode[] {
  const key = keyOf(pair);
  const p = [...path, key];
  const value = valueOfPair(pair);
  const { pairs, items } = inner(value);
  const special = w.special(p);
  const isScalar = !pairs && !items;
  if ((isScalar && parentSpecial) || w.budget <= 0) return [];
  if (items && parentSpecial && STRUCTURE_KEYS.has(key)) {
    return depth < MAX_DEPTH ? items.map((it, i) => itemNode(it, p, i, depth, w, key)).filter((n): n is OutlineNode => n !== null) : [];
  }
  w.budget--;
  const name = dotPath(p);
  const facts = new Facts();
  let children: OutlineNode[] = [];
  if (pairs && depth < MAX_DEPTH) {
    children = pairs.flatMap((c) => pairNodes(c, p, depth + 1, w, special !== null));
    if (special) scalarFacts(pairs, facts);
    else for (const c of pairs) if (scalarValue(valueOfPair(c)) !== null) facts.add(dotPath([...p, keyOf(c)]));
  } else if (items && depth < MAX_DEPTH) {
    children = items.map((it, i) => itemNode(it, p, i, depth + 1, w, key)).filter((n): n is OutlineNode => n !== null);
  }
  if (isScalar && p.length > 1) facts.add(name);
  const kind = special ?? (pairs ? 'object' : items ? 'list' : 'key');
  return [{
    kind,
    name: clip(special ? key : name, 200),
    memberKey: name,
    startLine: firstLine(pair),
    endLine: contentEnd(pair),
    role: children.length ? 'container' : 'unit',
    ...(children.length ? { context: clip(name, 200) } : {}),
    ...(facts.result() ? { facts: facts.list } : {}),
    children,
  }];
}

function itemNode(item: LiteNode, path: Seg[], index: number, depth: number, w: Walk, parentKey: string): OutlineNode | null {
  const { pairs } = inner(item);
  if (!pairs || w.budget <= 0) return null;
  w.budget--;
  const p = [...path, index];
  const key = dotPath(p);
  const kind = ITEM_KINDS[parentKey] ?? 'item';
  const facts = new Facts();
  scalarFacts(pairs, facts);
  const start = firstLine(item);
  const end = contentEnd(item);
  let children: OutlineNode[] = [];
  const structural = pairs.some((c) => STRUCTURE_KEYS.has(keyOf(c)));
  if (depth < MAX_DEPTH && (structural || end - start + 1 > BIG_ITEM_LINES)) {
    children = pairs.flatMap((c) => pairNodes(c, p, depth + 1, w, true));
  }
  return {
    kind,
    name: itemName(pairs) ?? key,
    memberKey: key,
    startLine: start,
    endLine: end,
    role: children.length ? 'container' : 'unit',
    ...(children.length ? { context: key } : {}),
    ...(facts.result() ? { facts: facts.list } : {}),
    children,
  };
}

/** Node kinds by path shape: jobs and services keyed by name, steps under jobs. */
function specialKinds(topKeys: Set<string>): (path: Seg[]) => string | null {
  const actions = topKeys.has('jobs') && (topKeys.has('on') || topKeys.has('true') || topKeys.has('name'));
  const compose = topKeys.has('services');
  return (path) => {
    if (path.length === 2 && typeof path[1] === 'string') {
      if (path[0] === 'jobs' && actions) return 'job';
      if (path[0] === 'services' && compose) return 'service';
    }
    return null;
  };
}

/** Broken YAML: top-level keys found by indentation, each up to the next one. */
function scanTopLevel(lines: readonly string[]): OutlineNode[] {
  const nodes: OutlineNode[] = [];
  const starts: Array<[number, string]> = [];
  let block = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (block && (l.trim() === '' || /^\s/.test(l))) continue;
    block = false;
    const m = /^([A-Za-z0-9_$"'][^:#]*?|"[^"]*"|'[^']*'):(?:\s|$)/.exec(l);
    if (m) {
      starts.push([i + 1, m[1].replace(/^["']|["']$/g, '')]);
      if (/[|>][-+0-9]*\s*(?:#.*)?$/.test(l)) block = true;
    } else if (/^(?:---|\.\.\.)\s*$/.test(l)) starts.push([i + 1, '']);
  }
  for (let k = 0; k < starts.length; k++) {
    const [line, key] = starts[k];
    if (!key) continue;
    const next = k + 1 < starts.length ? starts[k + 1][0] - 1 : lines.length;
    const end = lastContentLine(lines, next, line, (t) => t.startsWith('#'));
    nodes.push({ kind: 'key', name: key, memberKey: key, startLine: line, endLine: end, role: 'unit', children: [] });
  }
  return nodes;
}

export async function extractYaml(input: ChunkInput, ts: TreeSitterHost): Promise<FileOutline | null> {
  const tree = await ts.parse('yaml', input.text);
  let root: LiteNode;
  let broken: boolean;
  try {
    broken = tree.rootNode.hasError;
    if (!broken) {
      root = toLite(tree, input.text, {
        descend: (t) => !SCALARS.has(t) && t !== 'comment',
        text: (t) => SCALARS.has(t),
      });
    }
  } finally {
    tree.delete();
  }
  if (broken) {
    const nodes = scanTopLevel(input.lines);
    return nodes.length ? { nodes } : null;
  }
  const docs = kids(root!, 'document');
  const nodes: OutlineNode[] = [];
  const w: Walk = { budget: NODE_BUDGET, special: () => null };
  for (const [di, doc] of docs.entries()) {
    const body = kids(doc).find((c) => c.type === 'block_node' || c.type === 'flow_node');
    const { pairs } = inner(body);
    if (!pairs) continue;
    w.special = specialKinds(new Set(pairs.map(keyOf)));
    const top = pairs.flatMap((p) => pairNodes(p, [], 0, w, false));
    if (docs.length > 1) {
      const byKey = new Map(pairs.map((p) => [keyOf(p), p]));
      const kindV = scalarValue(valueOfPair(byKey.get('kind')));
      const meta = inner(valueOfPair(byKey.get('metadata'))).pairs ?? [];
      const metaName = scalarValue(valueOfPair(meta.find((p) => keyOf(p) === 'name')));
      const name = [kindV, metaName].filter(Boolean).join(' ') || `document[${di}]`;
      const prefixed = (ns: OutlineNode[]) => {
        for (const n of ns) {
          if (n.memberKey) n.memberKey = `[${di}].${n.memberKey}`;
          prefixed(n.children);
        }
      };
      prefixed(top);
      if (!top.length) continue;
      nodes.push({
        kind: 'document',
        name,
        memberKey: `[${di}]`,
        startLine: top[0].startLine,
        endLine: top[top.length - 1].endLine,
        role: 'container',
        context: name,
        children: top,
      });
    } else nodes.push(...top);
  }
  rollUpFacts(nodes);
  return nodes.length ? { nodes } : null;
}
