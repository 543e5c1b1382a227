// Definition-first ranking for names (issue 32, defect 2) and the pieces it rests on: a type's own
// name lands on its declaration (not on its constructor, a member chunk, or a commented-out tail);
// a name written without the repository's prefix reaches the declaration that carries it (affixes
// learned from the index); a member declared by the query name outranks its usages; commented-out
// code, `#if false` blocks and generated regions rank below live code; the query-type classifier.
// Each mechanism is a setting, checked to change the answer when it is off, and shown by explain.
// @lane unit
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { AFFIXES_META, affixBetween, indexAffixes, learnAffixes, nameParts, partEnds, readDeclaredNames } from '../core/search/affixes.ts';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deadLines, deadShare, looksLikeCode } from '../core/search/dead-code.ts';
import { identifierWords, queryType } from '../core/search/query-type.ts';
import { ftsExpression, parseQuery } from '../core/search/query.ts';
import { COLUMN_WEIGHTS, ftsChannel } from '../core/search/channels/fts.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

/** `n` methods of eight lines, each using `word` (so every chunk of the file matches it). */
function members(word: string, n: number, prefix = 'Step'): string {
  return Array.from({ length: n }, (_, i) => `    public void ${prefix}${i}()\n    {\n        var a = ${i};\n        // ${word} keeps going\n        a += 2;\n        Use(a);\n    }\n`).join('\n');
}

/** A class whose declaration sits among its usings (a chunk that BM25 ranks low) and whose members all name it. */
function usingsHeavyClass(ns: string, name: string, n: number, tail = ''): string {
  const usings = Array.from({ length: 16 }, (_, i) => `using Contoso.${ns}.Part${i};`).join('\n');
  return `${usings}\n\nnamespace Contoso.${ns};\n\n/// <summary>The ${ns} control.</summary>\npublic partial class ${name} : Control\n{\n    public ${name}()\n    {\n        Init(this as ${name});\n        Hook(typeof(${name}));\n    }\n\n${members(name, n)}${tail}}\n`;
}

/** A tail of commented-out code naming the class many times (the FATabView case). */
const DEAD_TAIL = `\n    // ----- tear-out support, left while it is investigated\n\n${Array.from({ length: 14 }, (_, i) => `    //private QxTabView GetTab${i}(QxTabView view) => view;`).join('\n')}\n\n    // ----- end tear-out\n`;

const QX = ['QxButton', 'QxPanel', 'QxSlider', 'QxMenu', 'QxTabView', 'QxExpander', 'QxFlyout'];

beforeAll(async () => {
  const files: Record<string, string> = {
    'src/Tabs/QxTabView.cs': usingsHeavyClass('Tabs', 'QxTabView', 40, DEAD_TAIL),
    // A helper that says "TabView" far more often than the class's head does.
    'src/Tabs/TabViewHelper.cs': cs('Tabs', `public static class TabViewHelper\n{\n${Array.from({ length: 12 }, (_, i) => `    // TabView note ${i}: a TabView holds tabs`).join('\n')}\n    public static void Apply(QxTabView v) { }\n}`),
    // A member declared once in a long method, used by name many times in files named after it.
    'src/Orders/OrderBook.cs': cs('Orders', `public sealed class OrderBook\n{\n${members('entries', 3)}\n    public int ReconcileBooks(int n)\n    {\n${Array.from({ length: 70 }, (_, i) => `        n += ${i}; // step ${i}`).join('\n')}\n        return n;\n    }\n}`),
    ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/Orders/Billing${i}.cs`, cs('Orders', `public sealed class Billing${i}\n{\n    public void Run(OrderBook b)\n    {\n${Array.from({ length: 6 }, (_, j) => `        b.ReconcileBooks(${j});`).join('\n')}\n    }\n}`)])),
    // Dead code: a file whose only mentions are commented out or under #if false; another says it live, once.
    'src/Kiln/OldKiln.cs': cs('Kiln', `public sealed class OldKiln\n{\n${Array.from({ length: 6 }, (_, i) => `    //var t${i} = Vitrify(${i});`).join('\n')}\n#if false\n    public void Vitrify() { Vitrify(); Vitrify(); }\n#endif\n}`),
    'src/Kiln/Kiln.cs': cs('Kiln', 'public sealed class Kiln\n{\n    public void Heat()\n    {\n        // start by heating slowly, then\n        Vitrify();\n        Vitrify();\n    }\n}'),
  };
  // A method declared in a file not named after it, below a pool of data files that say the word and
  // chunks whose symbols hold it more often than its own does.
  files['src/Metal/Finishes.cs'] = cs('Metal', `public static class Finishes\n{\n${members('polish', 4, 'Polish')}\n    public static string Tarnish(this int n) => n.ToString();\n}`);
  for (let i = 0; i < 40; i++) files[`data/tarnish${i}.yml`] = `surfaces:\n  tarnish:\n    tarnish: tarnish ${i}\n    note: tarnish tarnish\n`;
  for (let i = 0; i < 12; i++) files[`src/Notes/TarnishTarnishNote${i}.cs`] = cs('Notes', `public class TarnishTarnishNote${i}\n{\n    public void TarnishTarnish() { }\n}`);
  // The prefix the repository uses often: seven types start with Qx.
  for (const name of QX) if (!files[`src/Tabs/${name}.cs`]) files[`src/Controls/${name}.cs`] = cs('Controls', `public class ${name} : Control\n{\n${members('layout', 2)}}`);
  w = await fixture.create(files);
});

afterAll(() => fixture.close());

async function top(query: string, ws = w) {
  const r = await ws.search({ query, limit: 8 });
  expect(r.status, JSON.stringify(r.error)).toBe('ok');
  return r.hits;
}

const holds = (h: { start_line: number; end_line: number }, line: number) => h.start_line <= line && line <= h.end_line;

describe('definition-first for names', () => {
  it('lands a type’s own name on its declaration, not on its constructor, members or commented-out tail; explain names it', async () => {
    const hits = await top('QxTabView');
    const declLine = 21; // `public partial class QxTabView : Control`, after 16 usings, the namespace and a doc comment
    expect(hits[0].path).toBe('src/Tabs/QxTabView.cs');
    expect(holds(hits[0], declLine), `${hits[0].start_line}-${hits[0].end_line}`).toBe(true);
    const e = await w.explain(hits[0].hit_id, { query: 'QxTabView' });
    expect(e.explanation?.query_type).toBe('symbol');
    expect(e.explanation?.declaration).toMatchObject({ name: 'QxTabView', kind: 'class', line: declLine, affix: null, stem: true });
    expect(e.explanation?.factors?.some((f) => f.name === 'declaration' && f.factor > 1)).toBe(true);
    const off = await top('QxTabView', await fixture.open({ declaration_boost: 0 }));
    expect(holds(off[0], declLine), 'without declaration_boost the head chunk is not first').toBe(false);
  });

  it('reaches a declaration through a prefix the repository uses often (TabView → QxTabView)', async () => {
    const hits = await top('TabView');
    expect(hits[0].path).toBe('src/Tabs/QxTabView.cs');
    const e = await w.explain(hits[0].hit_id, { query: 'TabView' });
    expect(e.explanation?.declaration).toMatchObject({ query: 'TabView', name: 'QxTabView', affix: 'Qx' });
    const off = await top('TabView', await fixture.open({ declaration_boost: 0 }));
    expect(off[0].path).toBe('src/Tabs/TabViewHelper.cs');
  });

  it('finds a member declared in a file named otherwise when neither the pool nor the symbol rank reaches it', async () => {
    const r = await w.search({ query: 'Tarnish', limit: 3 });
    expect(r.hits[0]?.path, r.hits.map((h) => h.path).join(', ')).toBe('src/Metal/Finishes.cs');
    const e = await w.explain(r.hits[0].hit_id, { query: 'Tarnish' });
    expect(e.explanation?.declaration).toMatchObject({ name: 'Tarnish', kind: 'method' });
  });

  it('puts a member’s declaration above the places that call it, as a member (a lower tier than a type)', async () => {
    const hits = await top('ReconcileBooks');
    expect(hits[0].path).toBe('src/Orders/OrderBook.cs');
    const e = await w.explain(hits[0].hit_id, { query: 'ReconcileBooks' });
    expect(e.explanation?.declaration).toMatchObject({ name: 'ReconcileBooks', kind: 'method', stem: false });
    expect(e.explanation?.declaration?.tier).toBeLessThan(1);
  });

  it('gives identifiers embedded in a question a smaller share of the name boost, and no declaration raise (question_identifier_share)', async () => {
    // (More than three words: no definition_like pattern, so the name boost alone decides.)
    const q = 'where is ReconcileBooks in the code';
    const at = async (share: number) => {
      const ws = await fixture.open({ question_identifier_share: share });
      const hits = await top(q, ws);
      const i = hits.findIndex((h) => h.path === 'src/Orders/OrderBook.cs');
      const e = await ws.explain(hits[i].hit_id, { query: q });
      expect(e.explanation?.query_type).toBe('mixed');
      expect(e.explanation?.factors?.some((f) => f.name === 'declaration')).toBe(false);
      return { rank: i, factor: e.explanation?.factors?.find((f) => f.name === 'exact_symbol_name')?.factor };
    };
    const [whole, half, none] = [await at(1), await at(0.5), await at(0)];
    expect([whole.factor, half.factor, none.factor]).toEqual([1.5, 1.25, 1]);
    expect(whole.rank).toBeLessThan(none.rank);
    // As the whole query, the name gets the whole boost and the declaration raise.
    const sym = await w.explain((await top('ReconcileBooks'))[0].hit_id, { query: 'ReconcileBooks' });
    expect(sym.explanation?.factors?.find((f) => f.name === 'exact_symbol_name')?.factor).toBe(1.5);
    expect(sym.explanation?.declaration?.name).toBe('ReconcileBooks');
  });
});

describe('dead code ranks below live code (dead_code_factor)', () => {
  it('weighs commented-out code and #if false blocks down, and explain shows it', async () => {
    const hits = await top('Vitrify');
    expect(hits[0].path).toBe('src/Kiln/Kiln.cs');
    const dead = hits.find((h) => h.path === 'src/Kiln/OldKiln.cs')!;
    const e = await w.explain(dead.hit_id, { query: 'Vitrify' });
    expect(e.explanation?.factors?.find((f) => f.name === 'dead_code')?.factor).toBeLessThan(0.6);
    const off = await top('Vitrify', await fixture.open({ dead_code_factor: 1 }));
    expect(off[0].path).toBe('src/Kiln/OldKiln.cs');
  });

  it('classifies lines: commented-out code, #if false, generated regions and commented markup are dead; prose and doc comments are live', () => {
    const lines = [
      '// Get the platform modifier instead of assuming Control', // 1 prose
      '//private void Tear() { }', // 2 code
      '/// <summary>Docs.</summary>', // 3 doc comment
      '#if false', // 4
      'public void Old() { }', // 5 dead
      '#else', // 6
      'public void New() { }', // 7 live
      '#endif', // 8
      '#region Designer generated code', // 9
      'this.button1 = new Button();', // 10 dead
      '#endregion', // 11
      '    // _closeButton.Click -= OnClose;', // 12 code
      'var x = 1; // trailing comment', // 13 live
    ];
    const dead = deadLines(lines, 'csharp');
    expect([...dead]).toEqual([0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0]);
    expect(deadShare(dead, lines, 1, 3)).toBeCloseTo(1 / 3, 5);
    // Weighed by the lines that hold the query's words: the match is on the dead line alone.
    expect(deadShare(dead, lines, 1, 3, ['tear'])).toBe(1);
    expect(deadShare(dead, lines, 1, 3, ['platform'])).toBe(0);
    expect([...deadLines(['<!-- <Button Content="Old" /> -->', '<!-- a note about the layout -->', '<Button />'], 'axaml')]).toEqual([1, 0, 0]);
    // A range without a dead line (most chunks) is read no further: a share of 0, no line lowercased.
    const lower = vi.spyOn(String.prototype, 'toLowerCase');
    try {
      expect(deadShare(dead, lines, 6, 9, ['new'])).toBe(0);
      expect(lower).not.toHaveBeenCalled();
      expect(deadShare(dead, lines, 12, 13, ['close'])).toBe(1);
      expect(lower).toHaveBeenCalled();
    } finally {
      lower.mockRestore();
    }
    for (const code of ['return value;', 'private void Tear() { }', 'private void UpdateTabViewWithTearOutList()', 'var list = GetList();', '{', 'x += 1', 'private int GetIndex() => -1;']) {
      expect(looksLikeCode(code), code).toBe(true);
    }
    for (const prose of ['TODO: make this faster', 'the thumb is drawn with the accent (the thumb of every slider)', 'return the value when the user clicks', 'if the list is empty we stop', 'see Foo(x) for details']) {
      expect(looksLikeCode(prose), prose).toBe(false);
    }
  });
});

describe('scoring given chunks (a declaration the pool did not reach)', () => {
  it('gives each chunk the BM25 of a query run for it alone, all terms first, then any', async () => {
    const searcher = await w.searcher();
    const { session } = searcher;
    const weights = Object.values(COLUMN_WEIGHTS).join(', ');
    for (const query of ['QxTabView tear', 'ReconcileBooks step', 'tarnish']) {
      const q = parseQuery(query);
      const all = ftsExpression(q, 'all')!;
      const any = ftsExpression(q, 'any')!;
      const one = (expr: string, id: number) => session.db.selectValue(`SELECT -bm25(chunks_fts, ${weights}) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?`, [expr, id]) as number | undefined;
      const ids = session.db.selectValues('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid DESC', [any]) as number[];
      const hits = session.withPathFilter(null, () => ftsChannel.scoreChunks!(session, q, [...ids, 999_999]));
      const expected = ids.map((id) => ({ id, all: one(all, id), any: q.clauses.length > 1 ? one(any, id) : undefined }));
      expect(hits.map((h) => h.row.chunkId), query).toEqual(expected.filter((e) => e.all !== undefined || e.any !== undefined).map((e) => e.id));
      for (const [i, h] of hits.entries()) {
        const e = expected.find((x) => x.id === h.row.chunkId)!;
        expect(h.score, `${query} #${i}`).toBe(e.all ?? e.any);
        expect(h.detail?.terms).toBe(e.all !== undefined ? 'all' : 'any');
      }
      if (query.includes(' ')) expect(hits.some((h) => h.detail?.terms === 'any') && hits.some((h) => h.detail?.terms === 'all'), query).toBe(true);
    }
  });
});

describe('affixes recorded by the indexer', () => {
  it('records the affixes of a whole-tree run for its generation; a run over a path leaves them to be learned again', async () => {
    const own = new RankingFixture();
    try {
      const files: Record<string, string> = {};
      for (const name of ['ZqButton', 'ZqPanel', 'ZqSlider', 'ZqMenu', 'ZqTabView', 'ZqFlyout']) files[`src/${name}.cs`] = cs('Zq', `public class ${name}\n{\n    public void LoadAsync() { }\n}`);
      const ws = await own.create(files);
      const { session } = await ws.searcher();
      const db = session.db;
      const meta = () => JSON.parse(String(db.selectValue('SELECT value FROM meta WHERE key = ?', [AFFIXES_META]))) as { generation: string; prefixes: string[]; suffixes: string[] };
      const generation = () => String(db.selectValue("SELECT value FROM meta WHERE key = 'generation'"));
      const learned = learnAffixes(readDeclaredNames(db));
      expect(learned.prefixes).toContain('Zq');
      expect(meta()).toEqual({ generation: generation(), ...learned });
      expect(indexAffixes(db)).toEqual(learned);
      // A run over one path (the watcher's): a new generation, the record left behind; searches learn them again.
      fs.writeFileSync(path.join(own.root, 'src/ZqRail.cs'), cs('Zq', 'public class ZqRail\n{\n}'));
      await ws.index({ paths: ['src/ZqRail.cs'] });
      expect(meta().generation).not.toBe(generation());
      const now = learnAffixes(readDeclaredNames(db));
      expect(indexAffixes(db)).toEqual(now);
      // The next whole-tree run records them again.
      await ws.index();
      expect(meta()).toEqual({ generation: generation(), ...now });
    } finally {
      await own.close();
    }
  });
});

describe('affixes and query types', () => {
  it('learns the affixes a repository uses often, and matches a name up to one', () => {
    const names = ['FATabView', 'FAButton', 'FAMenu', 'FASlider', 'FAPanel', 'FAInfoBar', 'IDialogService', 'IPopover', 'IScroll', 'IFocus', 'IHost',
      'LoadAsync', 'SaveAsync', 'OpenAsync', 'CloseAsync', 'ShowAsync', 'TabStrip', 'Helper'];
    const a = learnAffixes(names);
    expect(a.prefixes).toEqual(expect.arrayContaining(['FA', 'I']));
    expect(a.suffixes).toContain('Async');
    expect(a.prefixes).not.toContain('Tab');
    expect(affixBetween('TabView', 'FATabView', a)).toBe('FA');
    expect(affixBetween('DialogService', 'IDialogService', a)).toBe('I');
    expect(affixBetween('Load', 'LoadAsync', a)).toBe('Async');
    expect(affixBetween('abView', 'FATabView', a)).toBeNull();
    expect(affixBetween('TabView', 'XYTabView', a)).toBeNull();
  });

  it('splits names into parts by character codes exactly as the part regex does (the regex stays the reference)', () => {
    const names = ['FATabView', 'IDialogService', 'HTMLParser', 'XMLHttpRequest2', 'ABC', 'A', 'a', 'aB', 'Ab', 'ABc', 'AbC', 'getItemsAsync', 'Item2Value',
      'V8Flags', 'UTF8Encoding', 'IO', 'IOStream', 'X1Y2Z3', 'snake_case', 'With.Dot', 'dash-ed', '$scope', '_private', 'ÄrgerView', 'naïveName', 'Straße', 'ÉTAT', 'ΑβΓ', '', '123', 'a1B2cD'];
    const ends: number[] = [];
    for (const name of names) {
      const parts = nameParts(name);
      const covers = parts.join('') === name;
      expect(partEnds(name, ends), name).toBe(covers);
      if (covers) expect(ends.map((e, i) => name.slice(i ? ends[i - 1] : 0, e)), name).toEqual(parts);
    }
    // The learned affixes of names with non-ASCII letters and skipped characters too.
    const mixed = [...names, 'ÄrgerButton', 'ÄrgerMenu', 'ÄrgerPanel', 'ÄrgerSlider', 'ÄrgerBar', 'HTMLView', 'HTMLMenu', 'HTMLTab', 'HTMLBox', 'HTMLRow'];
    expect(learnAffixes(mixed).prefixes).toEqual(expect.arrayContaining(['Ärger', 'HTML']));
  });

  it('classifies symbol, question and mixed queries', () => {
    const t = (s: string) => queryType(parseQuery(s));
    expect(t('MudDataGrid')).toBe('symbol');
    expect(t('tariff')).toBe('symbol');
    expect(t('Shop:Checkout:MaxItemsPerOrder')).toBe('symbol');
    expect(t('InputRadioGroup PaymentMethod')).toBe('symbol');
    expect(t('where is the order discount calculated')).toBe('question');
    expect(t('retry policy')).toBe('question');
    expect(t('MudDataGrid: Fix NRE when property has a nested null value')).toBe('mixed');
    expect(t('"?.Invoke("')).toBe('symbol');
    expect(identifierWords(parseQuery('Fix FAComboBox not allowing selection in IDialogService'))).toEqual(['FAComboBox', 'IDialogService']);
    // A capitalised word is no identifier: commit subjects capitalise plain words anywhere.
    expect(identifierWords(parseQuery('Stepper: Fix content not shown in Vertical variant'))).toEqual([]);
    expect(t('where does ReconcileBooks get called')).toBe('mixed');
  });
});
