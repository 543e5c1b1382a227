// What a V8 heap snapshot or sampling heap profile (bench/mem-timeline.ts --snapshot-at-files, --heap-profile)
// holds, grouped so it can be read: for a snapshot, self size by constructor (strings by kind), and the
// objects retaining most (dominator tree, weak edges left out) with the chain of objects dominating
// each; for a sampling profile, the live bytes by allocating function and its callers. Reads one file,
// prints Markdown; measures nothing itself.
//   node --experimental-transform-types bench/heap-summary.ts FILE.heapsnapshot|FILE.heapprofile [--top 25]
import * as fs from 'node:fs';
import { parseArgs } from './lib/util.ts';

const MB = (n: number) => (n / 1048576).toFixed(2);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

function summarizeSnapshot(s: Snapshot, top: number): string[] {
  const { meta } = s.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const nTypes = meta.node_types[0];
  const eTypes = meta.edge_types[0];
  const [fType, fName, fSelf, fEdges] = ['type', 'name', 'self_size', 'edge_count'].map((k) => meta.node_fields.indexOf(k));
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((k) => meta.edge_fields.indexOf(k));
  const n = s.nodes.length / nf;
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) firstEdge[i + 1] = firstEdge[i] + s.nodes[i * nf + fEdges];
  const type = (i: number) => nTypes[s.nodes[i * nf + fType]];
  const name = (i: number) => s.strings[s.nodes[i * nf + fName]];
  const self = (i: number) => s.nodes[i * nf + fSelf];
  const label = (i: number) => {
    const t = type(i);
    if (t === 'object' || t === 'closure' || t === 'native') return `${t === 'closure' ? 'closure ' : ''}${name(i).slice(0, 60)}`;
    if (t === 'hidden' || t === 'code' || t === 'array' || t === 'synthetic') return `(${t}) ${name(i).slice(0, 40)}`;
    return `(${t})`;
  };
  const weak = eTypes.indexOf('weak');
  const shortcut = eTypes.indexOf('shortcut');
  const edgeName = (e: number) => {
    const t = eTypes[s.edges[e + eType]];
    const v = s.edges[e + eName];
    return t === 'element' || t === 'hidden' ? `[${v}]` : s.strings[v];
  };
  // Self size by label.
  const byLabel = new Map<string, { size: number; count: number }>();
  let total = 0;
  for (let i = 0; i < n; i++) {
    const l = label(i);
    const g = byLabel.get(l) ?? { size: 0, count: 0 };
    g.size += self(i);
    g.count++;
    byLabel.set(l, g);
    total += self(i);
  }
  // Dominators (Cooper, Harvey & Kennedy), from the root (node 0), over strong edges.
  const order = new Int32Array(n).fill(-1); // postorder number
  const post: number[] = [];
  {
    const stack: number[] = [0];
    const cursor = new Uint32Array(n);
    order[0] = -2;
    for (let i = 0; i < n; i++) cursor[i] = firstEdge[i];
    while (stack.length) {
      const v = stack[stack.length - 1];
      if (cursor[v] < firstEdge[v + 1]) {
        const e = cursor[v]++ * ef;
        const et = s.edges[e + eType];
        if (et === weak || et === shortcut) continue;
        const w = s.edges[e + eTo] / nf;
        if (order[w] === -1) {
          order[w] = -2;
          stack.push(w);
        }
      } else {
        stack.pop();
        order[v] = post.length;
        post.push(v);
      }
    }
  }
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (let v = 0; v < n; v++) {
    if (order[v] < 0) continue;
    for (let k = firstEdge[v]; k < firstEdge[v + 1]; k++) {
      const et = s.edges[k * ef + eType];
      if (et === weak || et === shortcut) continue;
      preds[s.edges[k * ef + eTo] / nf].push(v);
    }
  }
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (order[a] < order[b]) a = idom[a];
      while (order[b] < order[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = post.length - 2; k >= 0; k--) {
      const v = post[k];
      let d = -1;
      for (const p of preds[v]) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== -1 && idom[v] !== d) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(n);
  for (const v of post) {
    retained[v] += self(v);
    if (v !== 0 && idom[v] >= 0) retained[idom[v]] += retained[v];
  }
  // The edge by which a node's dominator (or, failing that, any retainer) holds it, for the chains.
  const edgeTo = (from: number, v: number) => {
    for (let k = firstEdge[from]; k < firstEdge[from + 1]; k++) if (s.edges[k * ef + eTo] / nf === v) return edgeName(k * ef);
    return null;
  };
  const via = (v: number) => {
    const direct = edgeTo(idom[v], v);
    if (direct !== null) return direct;
    const p = preds[v][0]; // held through others: name one retainer
    return p === undefined ? '…' : `${edgeTo(p, v)} of ${label(p)} …`;
  };
  const chain = (v: number) => {
    const parts: string[] = [];
    for (let u = v, depth = 0; u !== 0 && depth < 7; u = idom[u], depth++) parts.push(`${label(u)} ←${via(u)}`);
    return parts.join(' ← ');
  };
  // What a listed object holds: its largest children in the dominator tree, by the edge that names them.
  const kids = new Map<number, number[]>();
  for (const v of post) if (v !== 0 && idom[v] >= 0) (kids.get(idom[v]) ?? kids.set(idom[v], []).get(idom[v])!).push(v);
  const holds = (v: number) =>
    (kids.get(v) ?? []).sort((a, b) => retained[b] - retained[a]).slice(0, 4).filter((c) => retained[c] >= 64 * 1024)
      .map((c) => `${via(c)}: ${label(c)} ${MB(retained[c])}`).join('; ');
  const out: string[] = [];
  out.push(`${n} nodes, ${MB(total)} MB self size in all, ${post.length} reachable`, '');
  out.push('### Self size by constructor', '', '| constructor | MB | count |', '|:--|--:|--:|');
  for (const [l, g] of [...byLabel].sort((a, b) => b[1].size - a[1].size).slice(0, top)) out.push(`| ${l.replace(/\|/g, '\\|')} | ${MB(g.size)} | ${g.count} |`);
  out.push('', '### Largest retained objects (dominator tree; an object listed is not inside another listed one)', '', '| retained MB | self MB | object ← how its dominator holds it ← … | its largest parts (MB) |', '|--:|--:|:--|:--|');
  const picked: number[] = [];
  const inside = (v: number) => {
    for (let u = idom[v]; u > 0; u = idom[u]) if (picked.includes(u)) return true;
    return false;
  };
  const candidates = post.filter((v) => v !== 0 && type(v) !== 'synthetic').sort((a, b) => retained[b] - retained[a]);
  for (const v of candidates) {
    if (picked.length >= top) break;
    if (retained[v] < 256 * 1024) break;
    if (inside(v)) continue;
    picked.push(v);
    out.push(`| ${MB(retained[v])} | ${MB(self(v))} | ${chain(v).replace(/\|/g, '\\|')} | ${holds(v).replace(/\|/g, '\\|')} |`);
  }
  return out;
}

interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: ProfileNode[] }

function summarizeProfile(p: { head: ProfileNode }, top: number): string[] {
  const byFn = new Map<string, number>();
  const byStack = new Map<string, number>();
  let total = 0;
  const frame = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(core|runtimes|bench|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  const walk = (n: ProfileNode, stack: string[]) => {
    const here = [...stack, frame(n)];
    if (n.selfSize) {
      total += n.selfSize;
      byFn.set(here[here.length - 1], (byFn.get(here[here.length - 1]) ?? 0) + n.selfSize);
      const key = here.slice(-5).reverse().join(' ← ');
      byStack.set(key, (byStack.get(key) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, here);
  };
  walk(p.head, []);
  const out = [`${MB(total)} MB live in the sampled allocations`, '', '### Live bytes by allocating function', '', '| function | MB |', '|:--|--:|'];
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(`| ${k} | ${MB(v)} |`);
  out.push('', '### Live bytes by stack (innermost first, five frames)', '', '| stack | MB |', '|:--|--:|');
  for (const [k, v] of [...byStack].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(`| ${k.replace(/\|/g, '\\|')} | ${MB(v)} |`);
  return out;
}

const { opts, positional } = parseArgs(process.argv.slice(2));
const top = Number(opts.top ?? 25);
const file = positional[0];
const data = JSON.parse(fs.readFileSync(file, 'utf8'));
console.log((data.head ? summarizeProfile(data, top) : summarizeSnapshot(data as Snapshot, top)).join('\n'));
