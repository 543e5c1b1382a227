// The code-ref and message-range syntax (core/intercom/code-ref.ts), case by case: every accepted
// form parses to the value it names, every refused one fails with its stable code.
// @lane unit
import { describe, expect, it } from 'vitest';
import { parseCodeRef, parseMessageRange, workspacePath } from '../core/intercom/code-ref.ts';

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as { code?: string }).code;
  }
};

describe('code refs', () => {
  it('parses every form', () => {
    expect(parseCodeRef('src/Foo.cs:L10-20')).toEqual({ kind: 'lines', file: 'src/Foo.cs', line_start: 10, line_end: 20 });
    expect(parseCodeRef('src/Foo.cs:L7')).toEqual({ kind: 'lines', file: 'src/Foo.cs', line_start: 7, line_end: 7 });
    expect(parseCodeRef('src/Foo.cs:L10:20')).toEqual({ kind: 'lines', file: 'src/Foo.cs', line_start: 10, line_end: 20 });
    expect(parseCodeRef('./src\\Foo.cs#L3-L4')).toEqual({ kind: 'lines', file: 'src/Foo.cs', line_start: 3, line_end: 4 });
    expect(parseCodeRef('L:10-20', { file: 'a/B.cs' })).toEqual({ kind: 'lines', file: 'a/B.cs', line_start: 10, line_end: 20 });
    expect(parseCodeRef('L:10 20', { file: 'a/B.cs' })).toMatchObject({ line_start: 10, line_end: 20 });
    expect(parseCodeRef('src/Foo.cs')).toEqual({ kind: 'file', file: 'src/Foo.cs' });
    expect(parseCodeRef('[M:Ns.Foo.Bar(int[])]')).toEqual({ kind: 'member', member_key: 'Ns.Foo.Bar(int[])' });
    expect(parseCodeRef('[M:Ns.Foo]', { file: 'src/Foo.cs' })).toEqual({ kind: 'member', member_key: 'Ns.Foo', file: 'src/Foo.cs' });
    expect(parseCodeRef('anchor:m3#2')).toEqual({ kind: 'anchor', anchor_id: 'm3#2' });
    const selection = { file: 'src/Foo.cs', line_start: 4, line_end: 6, text: 'x' };
    expect(parseCodeRef('selection', { selection })).toEqual({ kind: 'lines', file: 'src/Foo.cs', line_start: 4, line_end: 6, text: 'x' });
    expect(parseCodeRef(undefined, { selection })).toMatchObject({ kind: 'lines', line_start: 4 });
    expect(parseCodeRef('/repo/src/Foo.cs:L2', { rootLabel: '/repo' })).toMatchObject({ file: 'src/Foo.cs', line_start: 2 });
  });

  it('refuses what it cannot take, with a code', () => {
    expect(code(() => parseCodeRef(''))).toBe('empty_selection');
    expect(code(() => parseCodeRef('  '))).toBe('empty_selection');
    expect(code(() => parseCodeRef('selection'))).toBe('empty_selection');
    expect(code(() => parseCodeRef(null, { selection: { file: 'a.cs', line_start: 5, line_end: 4 } }))).toBe('empty_selection');
    expect(code(() => parseCodeRef('L:3'))).toBe('invalid_code_ref');
    expect(code(() => parseCodeRef('10-20'))).toBe('invalid_code_ref');
    expect(code(() => parseCodeRef('a.cs:L9-3'))).toBe('invalid_code_ref');
    expect(code(() => parseCodeRef('../x.cs:L1'))).toBe('path_outside_workspace');
    expect(code(() => parseCodeRef('/etc/passwd'))).toBe('path_outside_workspace');
    expect(code(() => parseCodeRef('C:\\x\\y.cs'))).toBe('path_outside_workspace');
    expect(code(() => parseCodeRef('/other/src/Foo.cs', { rootLabel: '/repo' }))).toBe('path_outside_workspace');
    expect(code(() => workspacePath('a/../../b'))).toBe('path_outside_workspace');
  });
});

describe('message ranges', () => {
  it('takes n, "n m", n:m, n-m and #n', () => {
    expect(parseMessageRange('3')).toEqual({ start: 3, end: 3 });
    expect(parseMessageRange('3 5')).toEqual({ start: 3, end: 5 });
    expect(parseMessageRange('3:5')).toEqual({ start: 3, end: 5 });
    expect(parseMessageRange(' 3 - 5 ')).toEqual({ start: 3, end: 5 });
    expect(parseMessageRange('#3:#5')).toEqual({ start: 3, end: 5 });
    expect(parseMessageRange(4)).toEqual({ start: 4, end: 4 });
    expect(parseMessageRange({ start: 2, end: 6 })).toEqual({ start: 2, end: 6 });
  });

  it('refuses scattered, reversed and malformed ranges', () => {
    for (const r of ['3,7', '3 5 7', '3+7', '3:5;7', '1:2:3']) expect(code(() => parseMessageRange(r)), r).toBe('range_not_contiguous');
    for (const r of ['', '5:3', '0', 'x', '3..5', '-1']) expect(code(() => parseMessageRange(r)), r).toBe('invalid_range');
  });
});
