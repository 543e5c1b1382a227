// In a question (query-type.ts: words only) a chunk that only lists members — fields, properties,
// config keys; the chunker's `members` chunks — weighs question_members_factor (rerank.ts): its
// symbol column, the heaviest, names several of the question's words at once although the chunk does
// nothing. On a small fixture through the public calls (search, explain), against the setting at 1.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

// More than 30 lines (a smaller class is one chunk): its properties are packed into one `members` chunk.
const props = ['double WeightLimit', 'double ParcelWeight', 'bool LimitChecked', 'string Carrier', 'int Retries', 'int Zone', 'string Label'].map((p) => `    public ${p} { get; set; }`).join('\n');
const resets = Array.from({ length: 24 }, (_, i) => `        Zone = ${i}; // reset step ${i}`).join('\n');

beforeAll(async () => {
  w = await fixture.create({
    // The options class names the words in its members; the check says them in its body.
    'src/Shipping/ShippingOptions.cs': cs('Shipping', `public sealed class ShippingOptions\n{\n${props}\n\n    public void Reset()\n    {\n${resets}\n    }\n}`),
    'src/Shipping/Scale.cs': cs('Shipping', 'public sealed class Scale\n{\n    public bool Accept(double grams, double max)\n    {\n        // the parcel weight is checked against the weight limit before it ships\n        return grams <= max;\n    }\n}'),
    ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i};\n}`)])),
  });
}, 120_000);
afterAll(() => fixture.close());

describe('member lists in a question (question_members_factor)', () => {
  it('ranks the code that does what a question asks above a list of members named by its words', async () => {
    const q = 'how is the parcel weight limit checked';
    const off = await (await fixture.open({ question_members_factor: 1 })).search({ query: q });
    expect(off.hits[0].path).toBe('src/Shipping/ShippingOptions.cs');
    const on = await w.search({ query: q });
    expect(on.hits[0].path).toBe('src/Shipping/Scale.cs');
    const members = on.hits.find((h) => h.path === 'src/Shipping/ShippingOptions.cs')!;
    expect((await w.explain(members.hit_id)).explanation?.factors).toContainEqual({ name: 'question_members', factor: 0.5 });
    // Not a question: the names as a symbol query keep the member list first, without the factor.
    const names = await w.search({ query: 'WeightLimit ParcelWeight' });
    expect(names.hits[0].path).toBe('src/Shipping/ShippingOptions.cs');
    expect((await w.explain(names.hits[0].hit_id)).explanation?.factors ?? []).not.toContainEqual(expect.objectContaining({ name: 'question_members' }));
  });
});
