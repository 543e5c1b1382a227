// Definition-first up to an affix keeps a capitalized query's case (core/search/rerank.ts
// declarationTier, affixCase): in a TypeScript repository whose types carry a prefix
// (`ExcalidrawFrameElement`) and whose type guards a lower-case one (`isFrameElement`), the name as
// people write it (`FrameElement`) reaches the type, not the guard about it (excalidraw: 16 of 38
// such names went to a guard in typeChecks.ts, bench/results/type-names-decl12.md). Real files in a
// temp folder, the real WASM SQLite, the product's search.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import { RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
afterAll(() => fixture.close());

const KINDS = ['Frame', 'Line', 'Arrow', 'Text', 'Image', 'Iframe', 'Embeddable', 'FreeDraw'];

describe('a prefixed type by its name without the prefix', () => {
  it('reaches the type, not a lower-case-prefixed function about it', async () => {
    const types = [
      'export type ExcalidrawElementBase = { id: string; x: number; y: number };',
      '',
      ...KINDS.flatMap((k) => [`/** A ${k.toLowerCase()} on the canvas. */`, `export type Excalidraw${k}Element = ExcalidrawElementBase & {`, `  type: "${k.toLowerCase()}";`, `  ${k.toLowerCase()}Data: string | null;`, '};', '']),
    ].join('\n');
    const guards = [
      'import type { ExcalidrawElementBase, ' + KINDS.map((k) => `Excalidraw${k}Element`).join(', ') + ' } from "./types";',
      '',
      ...KINDS.flatMap((k) => [
        `export function is${k}Element(element: ExcalidrawElementBase | null): element is Excalidraw${k}Element {`,
        `  // a ${k}Element has the type "${k.toLowerCase()}"`,
        ...Array.from({ length: 10 }, (_, i) => `  const check${i} = element != null && element.x >= ${i} && element.y >= ${i};`),
        `  return element != null && (element as Excalidraw${k}Element).type === "${k.toLowerCase()}";`,
        '}',
        '',
      ]),
    ].join('\n');
    const ws = await fixture.create({ 'src/element/types.ts': types, 'src/element/typeChecks.ts': guards });
    const declLine = types.split('\n').indexOf('export type ExcalidrawFrameElement = ExcalidrawElementBase & {') + 1;
    const r = await ws.search({ query: 'FrameElement', limit: 5 });
    const top = r.hits[0];
    expect(`${top.path}:${top.start_line}-${top.end_line}`).toMatch(/^src\/element\/types\.ts:/);
    expect(top.start_line <= declLine && declLine <= top.end_line).toBe(true);
    const e = await ws.explain(top.hit_id, { query: 'FrameElement' });
    expect(e.explanation?.declaration).toMatchObject({ name: 'ExcalidrawFrameElement', affix: 'Excalidraw' });
  });
});
