// The fusion's fast loop: for every repository of the evaluation sets, index a copy once with
// semantic search on (one provider) and write, per golden query, what the hybrid fusion reads
// through the real search path — keyword's finished ranking (mode keyword: every rerank factor, the
// per-file cap; path, lines and final score) and the vector channel's neighbours (mode semantic,
// re-sorted by cosine) — plus hybrid's own answer with the fusion settings given. A fusion variant
// can then be replayed on these lists in seconds (the candidates are the fusion's, exactly, up to the
// vector pool's per-file cap), and the one chosen is checked end to end by `npm run eval -- --semantic`.
//
//   node dist/bench/model/fusion-dump.js --sets sample,dev,broad --providers pretrained,learned --out /tmp/fusion-dump
//   node dist/bench/model/fusion-dump.js … --variants 'cos={"keyword_cosines":true}'   # + hybrid:cos, other fusion settings on the same index
//   node dist/bench/model/fusion-dump.js --summarize /tmp/fusion-dump [--record NAME]   # keyword vs hybrid per repository, as the product answered
//   node dist/bench/model/fusion-dump.js --sets sample,dev,broad --indexed /work/corpora/probe11 --out DIR   # indexes already built (ROOT/<name>, semantic on): read, not copied nor re-indexed
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkspace } from '../../runtimes/node/index.ts';
import { readGolden } from '../lib/queries.ts';
import { readManifest } from '../lib/corpora.ts';
import { copyTree, fmtNum, markdownTable, mean, optList, optString, parseArgs, repoRoot, sampleWorkspaceDir, runMain } from '../lib/util.ts';
import { scoreQuery } from '../lib/metrics.ts';
import { commitInfo, recordResult } from '../lib/record.ts';

interface RepoSpec { set: string; name: string; root: string; golden: string }

export function repoSpecs(sets: readonly string[], only: readonly string[] = []): RepoSpec[] {
  const out: RepoSpec[] = [];
  for (const s of sets) {
    if (s === 'sample') out.push({ set: s, name: 'sample-workspace', root: sampleWorkspaceDir(), golden: path.join(repoRoot(), 'bench/golden/sample-workspace.jsonl') });
    else if (s === 'dev') {
      const dev = process.env.EVAL_DEV_DIR ?? path.resolve(repoRoot(), '../../shared/eval-dev');
      const corp = process.env.EVAL_DEV_CORPUS ?? '/work/corpora/devset';
      for (const r of ['MudBlazor', 'FluentAvalonia']) out.push({ set: s, name: r, root: path.join(corp, r), golden: path.join(dev, 'golden', `${r}.jsonl`) });
    } else if (s === 'broad') {
      const corp = process.env.EVAL_BROAD_CORPORA ?? '/work/corpora/broad';
      for (const e of readManifest(path.join(repoRoot(), 'bench/golden/repos.json'))) out.push({ set: s, name: e.name, root: path.join(corp, e.name), golden: path.join(repoRoot(), 'bench/golden', `${e.name}.jsonl`) });
    } else throw new Error(`--sets: unknown set ${s} (sample, dev, broad)`);
  }
  return only.length ? out.filter((r) => only.includes(r.name)) : out;
}

const LIMIT = 50;

/** path, start line, end line, score, cosine (vector hits), keyword channel's own score (fts_score, keyword hits). */
type Row = [string, number, number, number, number | null, (number | null)?];
interface DumpQuery { id?: string; query: string; kind: string; relevant: string[]; keyword: Row[]; vector: Row[]; hybrid: Row[]; variants?: Record<string, Row[]>; keywordMatch?: string }
interface Dump { set: string; repo: string; provider: string; fusion: Record<string, unknown>; variants?: Record<string, Record<string, unknown>>; indexMs: number; vectors?: { took_ms?: number; chunks?: number } | null; queries: DumpQuery[] }

/** `--variants 'name={json};name2={json}'`: more fusion settings, each answering hybrid on the same index. */
export function parseVariants(spec: string | undefined): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const part of (spec ?? '').split(';').map((x) => x.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq < 1) throw new Error(`--variants: "${part}" is not name={json}`);
    out[part.slice(0, eq)] = JSON.parse(part.slice(eq + 1)) as Record<string, unknown>;
  }
  return out;
}

/** A dump's hybrid answers: the default fusion's (`hybrid`), then each variant's (`hybrid:<name>`). */
function hybrids(d: Dump): Array<{ engine: string; list: (q: DumpQuery) => Row[] }> {
  return [{ engine: 'hybrid', list: (q: DumpQuery) => q.hybrid }, ...Object.keys(d.variants ?? {}).map((v) => ({ engine: `hybrid:${v}`, list: (q: DumpQuery) => q.variants?.[v] ?? [] }))];
}

/** Keyword against hybrid (both as the product answered them) per repository of the dumps in `dir`. */
export function summarize(dir: string): { text: string; rows: unknown[] } {
  const dumps = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Dump);
  const order = ['sample', 'dev', 'broad'];
  dumps.sort((a, b) => order.indexOf(a.set) - order.indexOf(b.set) || a.repo.localeCompare(b.repo) || a.provider.localeCompare(b.provider));
  const f3 = (x: number) => fmtNum(x, 3);
  const sgn = (x: number) => `${x >= 0 ? '+' : ''}${f3(x)}`;
  const rows: unknown[] = [];
  const table: string[][] = [];
  for (const d of dumps) {
    const kw = d.queries.map((q) => scoreQuery(q.keyword.map((h) => h[0]), q.relevant));
    const m = (xs: typeof kw) => ({ r5: mean(xs.map((x) => x.recall5)), mrr: mean(xs.map((x) => x.mrr10)) });
    const k = m(kw);
    for (const { engine, list } of hybrids(d)) {
      const hy = d.queries.map((q) => scoreQuery(list(q).map((h) => h[0]), q.relevant));
      const h = m(hy);
      const lost = d.queries.filter((_, i) => kw[i].recall1 > 0 && !(hy[i].recall1 > 0));
      const better = kw.filter((x, i) => hy[i].mrr10 > x.mrr10).length;
      const worse = kw.filter((x, i) => hy[i].mrr10 < x.mrr10).length;
      const para = d.queries.map((q, i) => ({ q, i })).filter(({ q }) => q.kind === 'paraphrase');
      const pk = mean(para.map(({ i }) => kw[i].recall5));
      const ph = mean(para.map(({ i }) => hy[i].recall5));
      rows.push({ set: d.set, repo: d.repo, provider: d.provider, engine, queries: d.queries.length, keyword: k, hybrid: h, better, worse, rank1Lost: lost.map((q) => q.id ?? q.query), paraphrase: para.length ? { n: para.length, keywordR5: pk, hybridR5: ph } : null, indexMs: Math.round(d.indexMs), vectorPhaseMs: d.vectors?.took_ms ?? null, chunks: d.vectors?.chunks ?? null });
      table.push([d.set, d.repo, d.provider, engine, String(d.queries.length), `${f3(k.r5)} / ${f3(k.mrr)}`, `${f3(h.r5)} / ${f3(h.mrr)}`, sgn(h.r5 - k.r5), sgn(h.mrr - k.mrr), `${better} / ${worse}`,
        para.length ? `${f3(pk)} → ${f3(ph)} (${para.length})` : '–', `${lost.length}${lost.length ? `: ${lost.map((q) => q.id ?? q.query).join(', ')}` : ''}`,
        `${(d.indexMs / 1000).toFixed(1)} (${d.vectors?.took_ms != null ? (d.vectors.took_ms / 1000).toFixed(1) : '–'})`]);
    }
  }
  // Each set's queries pooled, per provider.
  const pooled: string[][] = [];
  const sets: unknown[] = [];
  for (const set of order) {
    for (const provider of [...new Set(dumps.filter((d) => d.set === set).map((d) => d.provider))]) {
      const ds = dumps.filter((d) => d.set === set && d.provider === provider);
      for (const engine of [...new Set(ds.flatMap((d) => hybrids(d).map((x) => x.engine)))]) {
        const have = ds.filter((d) => hybrids(d).some((x) => x.engine === engine));
        const listOf = (d: Dump) => hybrids(d).find((x) => x.engine === engine)!.list;
        const qs = have.flatMap((d) => d.queries.map((q) => ({ q, list: listOf(d) })));
        const kw = qs.map(({ q }) => scoreQuery(q.keyword.map((h) => h[0]), q.relevant));
        const hy = qs.map(({ q, list }) => scoreQuery(list(q).map((h) => h[0]), q.relevant));
        const k = { r5: mean(kw.map((x) => x.recall5)), mrr: mean(kw.map((x) => x.mrr10)) };
        const h = { r5: mean(hy.map((x) => x.recall5)), mrr: mean(hy.map((x) => x.mrr10)) };
        const lost = kw.filter((x, i) => x.recall1 > 0 && !(hy[i].recall1 > 0)).length;
        const para = qs.map(({ q }, i) => ({ q, i })).filter(({ q }) => q.kind === 'paraphrase');
        const pk = mean(para.map(({ i }) => kw[i].recall5));
        const ph = mean(para.map(({ i }) => hy[i].recall5));
        const behind = have.filter((d) => {
          const kk = d.queries.map((q) => scoreQuery(q.keyword.map((x) => x[0]), q.relevant));
          const hh = d.queries.map((q) => scoreQuery(listOf(d)(q).map((x) => x[0]), q.relevant));
          return mean(hh.map((x) => x.recall5)) < mean(kk.map((x) => x.recall5)) - 1e-9 || mean(hh.map((x) => x.mrr10)) < mean(kk.map((x) => x.mrr10)) - 1e-9;
        }).map((d) => d.repo);
        sets.push({ set, provider, engine, repositories: have.length, queries: qs.length, keyword: k, hybrid: h, rank1Lost: lost, paraphrase: para.length ? { n: para.length, keywordR5: pk, hybridR5: ph } : null, behind });
        pooled.push([set, provider, engine, String(have.length), String(qs.length), `${f3(k.r5)} / ${f3(k.mrr)}`, `${f3(h.r5)} / ${f3(h.mrr)}`, sgn(h.r5 - k.r5), sgn(h.mrr - k.mrr),
          para.length ? `${f3(pk)} → ${f3(ph)} (${para.length})` : '–', String(lost), behind.join(', ') || '–']);
      }
    }
  }
  const text = ['### Hybrid against keyword through the search path (ws.search, limit 50, file level, R@5 / MRR@10)', '',
    markdownTable(['set', 'repository', 'provider', 'engine', 'queries', 'keyword', 'hybrid', 'Δ R@5', 'Δ MRR', 'better / worse', 'paraphrase R@5', 'keyword rank-1 lost', 'index s (vector phase s)'], table), '',
    '#### Each set pooled (every query of its repositories)', '',
    markdownTable(['set', 'provider', 'engine', 'repositories', 'queries', 'keyword', 'hybrid', 'Δ R@5', 'Δ MRR', 'paraphrase R@5', 'keyword rank-1 lost', 'repositories behind keyword (R@5 or MRR)'], pooled), ''].join('\n');
  return { text, rows: [...rows, ...sets.map((x) => ({ pooled: x }))] };
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const sumDir = optString(opts, 'summarize');
  if (sumDir) {
    const { text, rows } = summarize(path.resolve(sumDir));
    const name = optString(opts, 'record');
    if (name) recordResult(name, { commit: commitInfo(), rows }, text);
    process.stdout.write(`${text}\n`);
    return 0;
  }
  const sets = optList(opts, 'sets');
  const providers = optList(opts, 'providers');
  const outDir = path.resolve(optString(opts, 'out') ?? 'bench-results/fusion-dump');
  const fusion = JSON.parse(optString(opts, 'fusion') ?? '{}') as Record<string, unknown>;
  const variants = parseVariants(optString(opts, 'variants'));
  fs.mkdirSync(outDir, { recursive: true });
  const indexed = optString(opts, 'indexed');
  for (const spec of repoSpecs(sets.length ? sets : ['sample', 'dev', 'broad'], optList(opts, 'repo'))) {
    const golden = readGolden(spec.golden);
    const work = indexed ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'hci-fdump-'));
    try {
      const root = work ? path.join(work, 'corpus') : path.join(path.resolve(indexed!), spec.name);
      if (work) copyTree(spec.root, root);
      for (const provider of providers.length ? providers : ['pretrained']) {
        const file = path.join(outDir, `${spec.name}.${provider}.json`);
        if (fs.existsSync(file)) continue;
        const t0 = performance.now();
        const ws = await openWorkspace(root, { settings: { semantic: { enabled: true, provider, ...fusion } } as never });
        try {
          // An index already built is only read (its vectors' figures from the last index run are not known here).
          const s = work ? await ws.index({ full: true }) : { vectors: null };
          const indexMs = performance.now() - t0;
          // The same index, every chunk of a file allowed (the vector list the fusion reads has no per-file cap).
          const raw = await openWorkspace(root, { settings: { max_hits_per_file: 1000, semantic: { enabled: true, provider, ...fusion } } as never });
          // Each variant: the same index, other fusion settings (nothing re-embedded: the model is the same).
          const alt = await Promise.all(Object.entries(variants).map(async ([name, v]) => ({ name, ws: await openWorkspace(root, { settings: { semantic: { enabled: true, provider, ...fusion, ...v } } as never }) })));
          const queries = [];
          for (const g of golden) {
            const kw = await ws.search({ query: g.query, limit: LIMIT, mode: 'keyword' });
            // The vector channel's neighbours by cosine: semantic mode without the per-file cap, three pages, re-sorted.
            const vecHits: Array<{ path: string; start_line: number; end_line: number; score: number; vec_score?: number }> = [];
            let cursor: string | undefined;
            for (let page = 0; page < 3; page++) {
              const r = await raw.search({ query: g.query, limit: LIMIT, mode: 'semantic', ...(cursor ? { cursor } : {}) });
              if (r.status === 'error') break;
              vecHits.push(...r.hits);
              cursor = r.next_cursor;
              if (!cursor) break;
            }
            vecHits.sort((a, b) => (b.vec_score ?? 0) - (a.vec_score ?? 0));
            const hy = await ws.search({ query: g.query, limit: LIMIT, mode: 'hybrid' });
            const row = (h: { path: string; start_line: number; end_line: number; score: number; vec_score?: number; fts_score?: number }) => [h.path, h.start_line, h.end_line, h.score, h.vec_score ?? null, h.fts_score ?? null];
            const alts: Record<string, unknown[]> = {};
            for (const a of alt) {
              const r = await a.ws.search({ query: g.query, limit: LIMIT, mode: 'hybrid' });
              alts[a.name] = r.status === 'error' ? [] : r.hits.map(row);
            }
            queries.push({
              id: g.id, query: g.query, kind: g.kind, relevant: g.relevant,
              keyword: kw.status === 'error' ? [] : kw.hits.map(row),
              ...(kw.status === 'error' ? {} : { keywordMatch: kw.match }),
              vector: vecHits.slice(0, LIMIT).map(row),
              hybrid: hy.status === 'error' ? [] : hy.hits.map(row),
              ...(alt.length ? { variants: alts } : {}),
            });
          }
          fs.writeFileSync(file, JSON.stringify({ set: spec.set, repo: spec.name, provider, fusion, ...(alt.length ? { variants } : {}), indexMs, vectors: s.vectors ?? null, queries }));
          process.stderr.write(`${spec.name} ${provider}: ${golden.length} queries, index ${(indexMs / 1000).toFixed(1)} s\n`);
          raw.close();
          for (const a of alt) a.ws.close();
        } finally {
          ws.close();
        }
      }
    } finally {
      if (work) fs.rmSync(work, { recursive: true, force: true });
    }
  }
  return 0;
}

await runMain(import.meta.url, 'fusion-dump', main);
