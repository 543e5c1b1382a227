// Own evidence against file-shared words (core/search/own-evidence.ts, settings own_evidence and
// own_evidence_weight), on a small fixture through the public calls (search, explain): every chunk of
// a file holds the file's path words and, for a member, its member key's namespace and type segments;
// BM25's length normalisation hands them to the file's tiniest chunk. With the setting on, the chunk
// that holds the query's words in its own text leads its file, and a sibling matched by the shared
// words only weighs no more than it.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { ownEvidenceFactors, ownName, ownWords } from '../core/search/own-evidence.ts';
import type { Candidate } from '../core/search/candidates.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

const padding = (n: number) => Array.from({ length: n }, (_, i) => `            // step ${i}: the batch is checked before it is written`).join('\n');

beforeAll(async () => {
  w = await fixture.create({
    // The path says "persistence" and "journal", the namespace "events" (in every member key). The
    // nested type's 1-line property says none of the query's words itself; the method that persists
    // events to the journal says them all, in a longer body.
    'src/Persistence/Journal/MemoryJournal.cs': cs('Persistence.Events.Storage', [
      'public sealed class MemoryJournal',
      '{',
      '    public void WriteMessages(object batch)',
      '    {',
      '        // persist each event of the batch to the journal store',
      padding(6),
      '    }',
      '',
      '    public sealed class ReplayFailure',
      '    {',
      '        public System.Exception Cause { get; }',
      '    }',
      '}',
    ].join('\n')),
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // nothing to see\n}`)])),
  }, { chunk_lines: 12, chunk_overlap_lines: 0 });
}, 120_000);
afterAll(() => fixture.close());

const factorsOf = async (ws: HciWorkspace, hitId: string) => (await ws.explain(hitId)).explanation?.factors ?? [];
const query = 'persist events to journal';
/** Chunks of 12 lines: the method's words in lines 1–12, the nested type and its property after. */
const TINY = 13;

describe('own evidence', () => {
  it('lets a tiny chunk matched by its path and member key words alone lead the file when off', async () => {
    const off = await (await fixture.open({ own_evidence: false })).search({ query });
    expect(off.hits[0].path).toBe('src/Persistence/Journal/MemoryJournal.cs');
    expect(off.hits[0].start_line).toBe(TINY);
  });

  it('shows the chunk that holds the words in its own text first, the tiny sibling after it (own_evidence)', async () => {
    // On by default.
    const wsOn = w;
    const on = await wsOn.search({ query });
    const ours = on.hits.filter((h) => h.path === 'src/Persistence/Journal/MemoryJournal.cs');
    expect(ours[0].start_line).toBe(1);
    const cause = ours.find((h) => h.start_line === TINY);
    // Listed, not dropped: below the lead, with a factor under 1 that explain shows.
    expect(cause).toBeDefined();
    const f = (await factorsOf(wsOn, cause!.hit_id)).find((x) => x.name === 'own_evidence');
    expect(f?.factor).toBeLessThan(1);
  });

  it('keeps the file its best score with weight 0: the lead is raised to it, the sibling held just below', async () => {
    const off = await (await fixture.open({ own_evidence: false })).search({ query });
    const ws0 = await fixture.open({ own_evidence: true, own_evidence_weight: 0 });
    const on = await ws0.search({ query });
    expect(on.hits[0].start_line).toBe(1);
    // (Within the file_chunks bonus, which now weighs the sibling at its lower score.)
    expect(on.hits[0].score / off.hits[0].score).toBeGreaterThan(0.99);
    expect(on.hits[0].score / off.hits[0].score).toBeLessThan(1.01);
    const raise = (await factorsOf(ws0, on.hits[0].hit_id)).find((x) => x.name === 'own_evidence');
    expect(raise?.factor).toBeGreaterThan(1);
  });
});

describe('ownEvidenceFactors', () => {
  const cand = (fileId: number, symbolName: string, body: string, score: number) => ({ fileId, symbolName, body, score }) as unknown as Candidate;
  it('counts a chunk own words in its name and body only, and leaves files whose lead already scores best', () => {
    expect(ownWords(cand(1, 'ReplayAllEvents', 'return journal;', 1), ['event', 'journal', 'persist'])).toBe(2);
    // A qualified symbol name's containers are file-shared: only its last segment is the chunk's own.
    expect(ownName('Contoso.Persistence.Journal')).toBe('Journal');
    expect(ownName('MemoryJournal+EventReplayFailure')).toBe('EventReplayFailure');
    expect(ownWords(cand(1, 'Contoso.Persistence.Journal', '}', 1), ['persist', 'journal'])).toBe(1);
    const lead = cand(1, 'Write', 'persist the event', 10);
    const tiny = cand(1, 'Cause', 'Exception Cause { get; }', 5);
    expect(ownEvidenceFactors([lead, tiny], ['persist', 'event'], 1).size).toBe(0);
    // One word: nothing to weigh (BM25 says which chunk holds it).
    expect(ownEvidenceFactors([cand(1, 'Cause', '', 20), lead], ['persist'], 1).size).toBe(0);
  });

  it('holds a better-scored sibling with fewer own words just below the lead, by the weight', () => {
    const lead = cand(1, 'Write', 'persist the event', 10);
    const tiny = cand(1, 'Cause', 'Exception Cause { get; }', 20);
    const other = cand(2, 'Other', 'persist event', 15);
    const half = ownEvidenceFactors([tiny, lead, other], ['persist', 'event'], 0.5);
    expect(half.get(lead)).toBeCloseTo(15 / 10, 6);
    expect(20 * half.get(tiny)!).toBeLessThan(15);
    expect(half.has(other)).toBe(false);
  });

  it('weighs a file matched by its shared words alone by shared_only_factor (1: left alone)', () => {
    const pathOnly = cand(3, 'Cause', 'Exception Cause { get; }', 12);
    const said = cand(4, 'Write', 'persist the event', 10);
    expect(ownEvidenceFactors([pathOnly, said], ['persist', 'event'], 1).size).toBe(0);
    const f = ownEvidenceFactors([pathOnly, said], ['persist', 'event'], 1, 0.5);
    expect(f.get(pathOnly)).toBe(0.5);
    expect(f.has(said)).toBe(false);
  });
});
