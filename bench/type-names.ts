// `node --experimental-transform-types bench/type-names.ts`: how often a type's bare name, as a query
// with default settings, puts the type's declaration at rank 1 (#32's "declaration at rank 1 for
// >= 95% of type-name queries"), over indexes already built (the probe sets; nothing is written).
// Per set: the type names its index's record of declarations knows (table file_declarations: C#
// classes, interfaces, records, structs, enums; TypeScript/JavaScript classes, interfaces, enums and
// type aliases), all of them or a fixed sample (`--sample N`, the first N in hash order), each queried
// once; a hit when rank 1's lines hold the declaration line of any type so named (every part of a
// partial class counts; so does a function of that name — a JavaScript constructor, a React
// component — and a Razor component or a XAML view). The declaration
// line is found here from the file's text (the first line from the record's name line on that says
// `class|interface|record|struct|enum|type|delegate Name`), not taken from the record alone.
// Misses are put in categories by the name (declared by several types, several arities, partial)
// and by where rank 1 went (another chunk of a declaring file, commented-out code, docs, tests, a
// member so named, elsewhere). `--affixed` adds the prefixed case: a type named with one of the
// index's learned prefixes (affixes.ts: `FA`TabView) whose name without it declares no type, queried
// without the prefix (`TabView`).
//
//   node --experimental-transform-types bench/type-names.ts --set Name=<indexed root> [--set …]
//        [--sample 200] [--settings '{}'] [--affixed] [--misses 12] [--md out.md] [--out out.json]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { openIndex } from './lib/chunks.ts';
import { hash32, markdownTable, optString, parseArgs, runMain } from './lib/util.ts';
import { deadLines } from '../core/search/dead-code.ts';
import { indexAffixes } from '../core/search/affixes.ts';

/** The kinds sampled as type names. */
const TYPE_KINDS = ['class', 'interface', 'record', 'struct', 'enum', 'type'];
/** Kinds whose declaration also answers a type name: the other type-level kinds (file-facts.ts: a JavaScript constructor function, a React component) and file-level ones (Razor components, pages, XAML views). */
const ANSWER_KINDS = [...TYPE_KINDS, 'delegate', 'function', 'module', 'component', 'page', 'view'];
/** Paths of tests, docs, samples and demos (a declaration only there ranks below the library's own declarations of the name: rerank.ts roles). */
const NOT_LIBRARY = /(^|\/)([^/]*tests?|docs?|samples?|demos?|examples?)(\/|$)|\.(test|spec)\.[jt]sx?$/i;
const DOCS = /\.(md|mdx|markdown|rst|txt|adoc)$|(^|\/)docs?\//i;
const TESTS = /(^|\/)[^/]*tests?(\/|$)|\.(test|spec)\.[jt]sx?$|(^|\/)__tests__\//i;

interface Decl { path: string; fileId: number; kind: string; line: number; arity: number; partial: boolean }
interface Query { name: string; query: string; decls: Decl[] }
interface Result { set: string; name: string; query: string; hit: boolean; category: string; traits: string[]; top: string }

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&');

/** The declarations of the index's type names, by name as written, with the declaration line read from the file's text. */
async function typeDeclarations(root: string): Promise<{ byName: Map<string, Decl[]>; prefixes: string[] }> {
  const db = await openIndex(root);
  try {
    const kinds = ANSWER_KINDS.map((k) => `'${k}'`).join(',');
    const rows = db.selectArrays(`SELECT d.symbol, d.kind, d.line, d.arity, f.path, f.id FROM file_declarations d JOIN files f ON f.id = d.file_id WHERE d.kind IN (${kinds}) ORDER BY f.id, d.seq`) as Array<[string, string, number, number, string, number]>;
    const texts = new Map<string, string[]>();
    const byName = new Map<string, Decl[]>();
    for (const [symbol, kind, line, arity, p, id] of rows) {
      let lines = texts.get(p);
      if (!lines) texts.set(p, (lines = readLines(root, p)));
      const decl = new RegExp(`\\b(class|interface|record|struct|enum|type|delegate)\\s+(\\w+\\s+)?${esc(symbol)}\\b`);
      let at = Number(line);
      for (let l = Number(line); l < Math.min(lines.length, Number(line) + 40); l++) if (decl.test(lines[l - 1] ?? '')) { at = l; break; }
      const list = byName.get(symbol) ?? [];
      list.push({ path: p, fileId: Number(id), kind, line: at, arity: Number(arity), partial: /\bpartial\b/.test(lines[at - 1] ?? '') });
      byName.set(symbol, list);
    }
    return { byName, prefixes: indexAffixes(db).prefixes };
  } finally {
    db.close();
  }
}

function readLines(root: string, p: string): string[] {
  try {
    return fs.readFileSync(path.join(root, p), 'utf8').split(/\r?\n/);
  } catch {
    return [];
  }
}

/** The names sampled (type kinds, 3+ name characters), in hash order. */
function sample(byName: Map<string, Decl[]>, n: number): Query[] {
  const names = [...byName].filter(([name, ds]) => /^[A-Za-z_$][\w$]{2,}$/.test(name) && ds.some((d) => TYPE_KINDS.includes(d.kind))).map(([name, decls]) => ({ name, query: name, decls }));
  return names.sort((a, b) => hash32(a.name) - hash32(b.name) || (a.name < b.name ? -1 : 1)).slice(0, n);
}

/** A library prefix: one of the learned prefixes, a capital first, starting at least this share of the set's type names. */
const LIBRARY_PREFIX_SHARE = 0.05;

/** The learned prefixes (affixes.ts) that start at least LIBRARY_PREFIX_SHARE of the type names (`FA`, `Mud`, `Radzen`; not `I`, which starts interfaces). */
function libraryPrefixes(byName: Map<string, Decl[]>, prefixes: readonly string[]): Array<[string, number]> {
  const names = sample(byName, Infinity).map((q) => q.name);
  return prefixes.filter((p) => /^[A-Z]/.test(p) && p !== 'I')
    .map((p): [string, number] => [p, names.filter((n) => n.length > p.length && n.startsWith(p) && /^[A-Z]/.test(n.slice(p.length))).length / Math.max(1, names.length)])
    .filter(([, share]) => share >= LIBRARY_PREFIX_SHARE);
}

/** Prefixed types (`FATabView`) whose name without the prefix (`TabView`) declares no type, queried without it. */
function affixedSample(byName: Map<string, Decl[]>, prefixes: readonly string[], n: number): Query[] {
  const out: Query[] = [];
  for (const q of sample(byName, Infinity)) {
    const p = prefixes.find((x) => q.name.length > x.length + 2 && q.name.startsWith(x) && /^[A-Z]/.test(q.name.slice(x.length)));
    if (!p) continue;
    const rest = q.name.slice(p.length);
    if (byName.has(rest) || out.some((o) => o.query === rest)) continue;
    out.push({ ...q, query: rest });
  }
  return out.slice(0, n);
}

function traitsOf(q: Query): string[] {
  const files = new Set(q.decls.map((d) => d.path));
  const t: string[] = [];
  if (files.size > 1 && !q.decls.every((d) => d.partial || !TYPE_KINDS.includes(d.kind))) t.push('shared');
  if (new Set(q.decls.map((d) => d.arity)).size > 1) t.push('arity');
  if (q.decls.some((d) => d.partial)) t.push('partial');
  if (q.decls.every((d) => NOT_LIBRARY.test(d.path))) t.push('only in tests/docs/samples');
  return t;
}

export async function probe(set: string, root: string, settings: Record<string, unknown>, queries: Query[]): Promise<Result[]> {
  const ws = await openWorkspace(root, { settings });
  const out: Result[] = [];
  try {
    for (const q of queries) {
      const page = await ws.search({ query: q.query });
      const top = page.hits[0];
      const hit = !!top && q.decls.some((d) => d.path === top.path && d.line >= top.start_line && d.line <= top.end_line);
      let category = '';
      if (!hit) {
        if (!top) category = 'nothing';
        else {
          const lines = readLines(root, top.path);
          const dead = deadLines(lines, top.lang ?? '');
          let deadN = 0;
          for (let l = top.start_line; l <= top.end_line; l++) deadN += dead[l - 1] ? 1 : 0;
          if (deadN * 2 >= top.end_line - top.start_line + 1) category = 'commented-out';
          else if (q.decls.some((d) => d.path === top.path)) category = 'declaring file, other chunk';
          else if (DOCS.test(top.path)) category = 'docs';
          else if (TESTS.test(top.path)) category = 'tests';
          else if (top.symbol?.name === q.query) category = 'member so named';
          else category = 'elsewhere';
        }
      }
      out.push({ set, name: q.name, query: q.query, hit, category, traits: traitsOf(q), top: top ? `${top.path}:${top.start_line}-${top.end_line} ${top.symbol?.kind ?? ''} ${top.symbol?.name ?? ''}`.trim() : '' });
    }
  } finally {
    ws.close();
  }
  return out;
}

const CATEGORIES = ['declaring file, other chunk', 'commented-out', 'docs', 'tests', 'member so named', 'elsewhere', 'nothing'];
const TRAITS = ['shared', 'arity', 'partial', 'only in tests/docs/samples'];

export function report(results: readonly Result[], title: string, misses: number): string {
  const sets = [...new Set(results.map((r) => r.set))];
  const rows = [...sets, 'all'].map((s) => {
    const rs = s === 'all' ? results : results.filter((r) => r.set === s);
    const miss = rs.filter((r) => !r.hit);
    const hits = rs.length - miss.length;
    return [s, String(rs.length), String(hits), rs.length ? (hits / rs.length).toFixed(3) : '–',
      ...CATEGORIES.map((c) => String(miss.filter((r) => r.category === c).length)),
      ...TRAITS.map((t) => String(miss.filter((r) => r.traits.includes(t)).length))];
  });
  const out = [`${title}\n`, markdownTable(['set', 'n', 'decl@1', 'share', ...CATEGORIES.map((c) => `miss: ${c}`), ...TRAITS.map((t) => `miss name ${t}`)], rows)];
  if (misses > 0) {
    out.push('\nMisses (query → rank 1; first per set):\n```');
    for (const s of sets) for (const r of results.filter((x) => x.set === s && !x.hit).slice(0, misses)) out.push(`${s.padEnd(17)} ${r.query}${r.query !== r.name ? ` (${r.name})` : ''} [${r.category}${r.traits.length ? `; ${r.traits.join(',')}` : ''}] → ${r.top}`);
    out.push('```');
  }
  return out.join('\n') + '\n';
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['affixed']);
  const sets = ([] as string[]).concat((opts.set as string | string[] | undefined) ?? []);
  if (!sets.length) throw new Error('give at least one --set NAME=<indexed root>');
  const settings = JSON.parse(optString(opts, 'settings') ?? '{}') as Record<string, unknown>;
  const n = Number(optString(opts, 'sample') ?? Infinity);
  const misses = Number(optString(opts, 'misses') ?? 12);
  const all: Result[] = [];
  const affixed: Result[] = [];
  const libs: string[] = [];
  for (const spec of sets) {
    const m = /^([^=]+)=(.+)$/.exec(spec);
    if (!m) throw new Error(`--set NAME=root, got ${spec}`);
    const { byName, prefixes } = await typeDeclarations(m[2]);
    all.push(...await probe(m[1], m[2], settings, sample(byName, n)));
    if (opts.affixed) {
      const lib = libraryPrefixes(byName, prefixes);
      libs.push(`${m[1]}: ${lib.length ? lib.map(([p, s]) => `${p} (${(100 * s).toFixed(0)}%)`).join(', ') : 'none'}`);
      affixed.push(...await probe(m[1], m[2], settings, affixedSample(byName, lib.map(([p]) => p), n)));
    }
    process.stderr.write(`${m[1]} done\n`);
  }
  let md = report(all, `Type names as queries, declaration at rank 1 (settings ${JSON.stringify(settings)}, sample ${n} per set, fixed hash order):`, misses);
  if (opts.affixed) md += `\nLibrary prefixes (learned prefixes that start >= ${100 * LIBRARY_PREFIX_SHARE}% of a set's type names): ${libs.join('; ')}\n\n` + report(affixed, 'Prefixed types queried without the prefix (`TabView` for FATabView; the name without it declares no type):', misses);
  process.stdout.write(md);
  const mdFile = optString(opts, 'md');
  if (mdFile) fs.writeFileSync(mdFile, md);
  const file = optString(opts, 'out');
  if (file) fs.writeFileSync(file, JSON.stringify({ settings, sample: n, results: all, affixed }, null, 1));
  return 0;
}

await runMain(import.meta.url, 'type-names', main);
