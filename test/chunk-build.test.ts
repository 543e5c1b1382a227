// The chunk builder on hand-made outlines: units become chunks, gaps join neighbours or stand
// alone, small neighbours are packed, giants are split with their header and symbol kept.
// @lane unit
import { describe, it, expect } from 'vitest';
import { chunksFromOutline } from '../core/chunk/build.ts';
import type { FileOutline, OutlineNode } from '../core/chunk/outline.ts';

const LIMITS = { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 };
const node = (kind: string, name: string, startLine: number, endLine: number, children: OutlineNode[] = [], extra: Partial<OutlineNode> = {}): OutlineNode => ({
  kind, name, startLine, endLine, role: children.length ? 'container' : 'unit', children, ...extra,
});
const lines = (n: number, closers: number[] = []) => Array.from({ length: n }, (_, i) => (closers.includes(i + 1) ? '}' : `line ${i + 1}`));

describe('chunksFromOutline', () => {
  it('cuts a big type into its members, joins short gaps and keeps context in headers', () => {
    // 1-3 usings, 4 namespace, 5-6 class header, 7-46 method A, 47 blank, 48-90 method B, 91 }, 92-93 trailing
    const text = lines(93, [91]);
    text[46] = '';
    const cls = node('class', 'Orders', 5, 91, [
      node('method', 'A', 7, 46, [], { memberKey: 'Ns.Orders.A()' }),
      node('method', 'B', 48, 90, [], { memberKey: 'Ns.Orders.B()', facts: ['route: /orders'] }),
    ], { context: 'class Orders : Base' });
    const outline: FileOutline = { nodes: [cls], fileContext: ['namespace Ns'] };
    const chunks = chunksFromOutline(text, outline, LIMITS);
    expect(chunks.map((c) => [c.startLine, c.endLine, c.kind, c.symbol?.name])).toEqual([
      [1, 47, 'method', 'A'], // the blank line after A stays with A
      [48, 93, 'method', 'B'], // the closing brace and trailing lines join the last member
    ]);
    expect(chunks[0].header).toBe('namespace Ns\nclass Orders : Base');
    expect(chunks[1].header).toBe('namespace Ns\nclass Orders : Base\nroute: /orders');
    expect(chunks[1].symbol).toEqual({ kind: 'method', name: 'B', memberKey: 'Ns.Orders.B()' });
  });

  it('keeps a small container as one chunk', () => {
    const outline: FileOutline = { nodes: [node('record', 'Money', 1, 20, [node('method', 'Add', 5, 8), node('method', 'Sub', 10, 13)])] };
    expect(chunksFromOutline(lines(20), outline, LIMITS).map((c) => [c.startLine, c.endLine, c.symbol?.name])).toEqual([[1, 20, 'Money']]);
  });

  it('packs tiny members of one parent together and lists them', () => {
    const props = Array.from({ length: 8 }, (_, i) => node('property', `P${i}`, 3 + i * 3, 4 + i * 3));
    const cls = node('class', 'Dto', 1, 80, [...props, node('method', 'Validate', 40, 79)]);
    const chunks = chunksFromOutline(lines(80, [80]), { nodes: [cls] }, LIMITS);
    expect(chunks[0].kind).toBe('members');
    expect(chunks[0].symbol?.name).toBe('P0, P1, P2, P3, P4, P5, P6, P7');
    expect([chunks[0].startLine, chunks[0].endLine]).toEqual([1, 25]);
    expect(chunks.at(-1)?.symbol?.name).toBe('Validate');
    expect(chunks.at(-1)?.endLine).toBe(80);
  });

  it('gives a long gap its own chunk under the enclosing container', () => {
    const cls = node('class', 'Big', 1, 200, [node('method', 'A', 2, 40), node('method', 'B', 150, 199)]);
    const chunks = chunksFromOutline(lines(200, [200]), { nodes: [cls] }, LIMITS);
    const gap = chunks.find((c) => c.kind === 'gap')!;
    expect([gap.startLine, gap.endLine]).toEqual([41, 149]);
    expect(gap.symbol?.name).toBe('Big');
  });

  it('splits a member over the limit into windows that keep header and symbol', () => {
    const outline: FileOutline = { nodes: [node('method', 'Huge', 1, 300, [], { memberKey: 'Ns.T.Huge()', context: 'ignored for units' })], fileContext: ['namespace Ns'] };
    const chunks = chunksFromOutline(lines(300), outline, LIMITS);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([[1, 110], [96, 205], [191, 300]]);
    for (const c of chunks) {
      expect(c.symbol?.memberKey).toBe('Ns.T.Huge()');
      expect(c.header).toBe('namespace Ns');
    }
  });

  it('covers a file whose outline covers nothing but a few lines', () => {
    const chunks = chunksFromOutline(lines(50), { nodes: [node('section', 'Intro', 20, 22)] }, LIMITS);
    const covered = new Set(chunks.flatMap((c) => Array.from({ length: c.endLine - c.startLine + 1 }, (_, i) => c.startLine + i)));
    expect(covered.size).toBe(50);
  });
});
