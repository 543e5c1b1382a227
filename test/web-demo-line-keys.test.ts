// Marking lines from the keyboard in the explorer's file view (web-demo/src/viewer/line-keys.ts):
// Alt+↓/↑ moves a one-line mark, Shift+↓/↑ moves the free end of a range around its anchor (crossing
// it turns the range over), Shift+Home/End stretch it to the file's ends, the first line on screen
// starts a mark when none is there, and every step stays inside the file. The real keys in Chromium
// are test/web-demo-layout.test.ts's.
// @lane unit
import { describe, it, expect } from 'vitest';
import { lineStep, type LineKey } from '../web-demo/src/viewer/line-keys.ts';

const shift = (key: string): LineKey => ({ key, shiftKey: true, altKey: false });
const alt = (key: string): LineKey => ({ key, shiftKey: false, altKey: true });

describe('keyboard line marking in the file view', () => {
  it('moves a one-line mark with Alt+arrows, from the first line on screen when none is marked', () => {
    expect(lineStep(alt('ArrowDown'), undefined, null, 100, 40)).toEqual({ lines: [40, 40], anchor: 40, moved: 40 });
    expect(lineStep(alt('ArrowDown'), [40, 40], 40, 100, 1)).toEqual({ lines: [41, 41], anchor: 41, moved: 41 });
    expect(lineStep(alt('ArrowUp'), [10, 20], 10, 100, 1)).toEqual({ lines: [9, 9], anchor: 9, moved: 9 });
    expect(lineStep(alt('ArrowDown'), [10, 20], 10, 100, 1)).toEqual({ lines: [21, 21], anchor: 21, moved: 21 });
    expect(lineStep(alt('ArrowUp'), [1, 1], 1, 100, 1)?.lines).toEqual([1, 1]);
    expect(lineStep(alt('ArrowDown'), [100, 100], 100, 100, 1)?.lines).toEqual([100, 100]);
  });

  it('moves the free end of a range with Shift+arrows around its anchor, and turns it over past the anchor', () => {
    let s = lineStep(shift('ArrowDown'), [10, 10], 10, 100, 1)!;
    expect(s).toEqual({ lines: [10, 11], anchor: 10, moved: 11 });
    s = lineStep(shift('ArrowDown'), s.lines, s.anchor, 100, 1)!;
    expect(s.lines).toEqual([10, 12]);
    s = lineStep(shift('ArrowUp'), s.lines, s.anchor, 100, 1)!;
    s = lineStep(shift('ArrowUp'), s.lines, s.anchor, 100, 1)!;
    expect(s.lines).toEqual([10, 10]);
    s = lineStep(shift('ArrowUp'), s.lines, s.anchor, 100, 1)!;
    expect(s).toEqual({ lines: [9, 10], anchor: 10, moved: 9 });
    // A range marked by a click with Shift from 30 up to 20 keeps 30 as its anchor.
    expect(lineStep(shift('ArrowUp'), [20, 30], 30, 100, 1)).toEqual({ lines: [19, 30], anchor: 30, moved: 19 });
    // A range with no known anchor (a hit's lines) grows at its end.
    expect(lineStep(shift('ArrowDown'), [20, 30], null, 100, 1)?.lines).toEqual([20, 31]);
  });

  it('stretches to the first or last line with Shift+Home/End, and stays inside the file', () => {
    expect(lineStep(shift('End'), [10, 12], 10, 100, 1)).toEqual({ lines: [10, 100], anchor: 10, moved: 100 });
    expect(lineStep(shift('Home'), [10, 12], 10, 100, 1)).toEqual({ lines: [1, 10], anchor: 10, moved: 1 });
    expect(lineStep(shift('Home'), undefined, null, 100, 50)).toEqual({ lines: [1, 50], anchor: 50, moved: 1 });
    expect(lineStep(shift('ArrowDown'), [99, 100], 99, 100, 1)?.lines).toEqual([99, 100]);
    expect(lineStep(shift('ArrowDown'), undefined, null, 5, 9)?.lines).toEqual([5, 5]);
  });

  it('leaves every other key alone: plain arrows scroll, Ctrl/Cmd and both modifiers are not marking', () => {
    expect(lineStep({ key: 'ArrowDown', shiftKey: false, altKey: false }, [1, 1], 1, 100, 1)).toBeNull();
    expect(lineStep({ key: 'ArrowDown', shiftKey: true, altKey: true }, [1, 1], 1, 100, 1)).toBeNull();
    expect(lineStep({ key: 'ArrowDown', shiftKey: true, altKey: false, ctrlKey: true }, [1, 1], 1, 100, 1)).toBeNull();
    expect(lineStep(shift('a'), [1, 1], 1, 100, 1)).toBeNull();
    expect(lineStep(alt('Home'), [1, 1], 1, 100, 1)).toBeNull();
    expect(lineStep(alt('ArrowDown'), undefined, null, 0, 1)).toBeNull();
  });
});
