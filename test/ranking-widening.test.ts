// The fill-the-page policy's other half: when some chunks hold every term but too few to fill the
// page, the page goes on only through the rare terms. A word that most chunks hold (here one in all
// of 1,100 files, past the channel's 1,000-chunk floor for "common") does not widen: chunks that hold
// only it would be noise, and scoring them is what makes common-term queries slow. Needs an index
// past that floor, so it has a fixture of its own. With setting near_complete = "always" a page that
// chunks holding every term fill takes those holding every term but one too (channels/fts.ts).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const COMMON_FILES = 1100;
const fixture = new RankingFixture();
let w: HciWorkspace;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < COMMON_FILES; i++) files[`src/Parts/Part${i}.cs`] = cs('Parts', `public sealed class Part${i}\n{\n    // the freight ${i} is weighed here\n}`);
  // One file holds both words; two hold only the rare one.
  files['src/Yard/Crane.cs'] = cs('Yard', 'public sealed class Crane\n{\n    // the zircon freight is lifted here\n}');
  files['src/Yard/Hoist.cs'] = cs('Yard', 'public sealed class Hoist\n{\n    // zircon blocks only\n}');
  files['src/Yard/Winch.cs'] = cs('Yard', 'public sealed class Winch\n{\n    // more zircon\n}');
  // Near-complete: twelve files hold all three of "cobalt nickel quartz" once in a long chunk; one
  // holds only cobalt and nickel, many times over.
  for (let i = 0; i < 12; i++) files[`src/Mine/Seam${i}.cs`] = cs('Mine', `public sealed class Seam${i}\n{\n    // cobalt, nickel and quartz ${i} lie in this seam\n${Array.from({ length: 40 }, (_, j) => `    // layer ${j}: rock, gravel, sand, clay and water`).join('\n')}\n}`);
  files['src/Mine/Smelter.cs'] = cs('Mine', 'public sealed class Smelter\n{\n    // cobalt nickel cobalt nickel cobalt nickel\n}');
  w = await fixture.create(files);
}, 180_000);

afterAll(() => fixture.close());

describe('widening a short page', () => {
  it('goes on through the rare terms only: chunks that hold just a word most chunks hold do not fill the page', async () => {
    const r = await w.search({ query: 'zircon freight', limit: 10 });
    expect(r.status).toBe('ok');
    expect(r.match).toBe('all_then_any');
    expect(r.hits.map((h) => h.path).sort()).toEqual(['src/Yard/Crane.cs', 'src/Yard/Hoist.cs', 'src/Yard/Winch.cs']);
    expect(r.hits[0].path).toBe('src/Yard/Crane.cs');
    // Nothing holds every term: then the common word widens too (the page is not left empty of it).
    const none = await w.search({ query: 'freight quartz', limit: 5 });
    expect(none.match).toBe('any');
    expect(none.hits).toHaveLength(5);
  });

  it('takes chunks holding every word but one into a page complete matches fill with near_complete = "always"', async () => {
    const q = 'cobalt nickel quartz';
    const off = await w.search({ query: q, limit: 10 });
    expect(off.match).toBe('all');
    expect(off.hits.map((h) => h.path)).not.toContain('src/Mine/Smelter.cs');
    const short = await (await fixture.open({ near_complete: 'short' })).search({ query: q, limit: 10 });
    expect(short.hits.map((h) => h.path)).not.toContain('src/Mine/Smelter.cs');
    const always = await (await fixture.open({ near_complete: 'always' })).search({ query: q, limit: 10 });
    expect(always.match).toBe('all_then_any');
    expect(always.hits[0].path).toBe('src/Mine/Smelter.cs');
  });
});
