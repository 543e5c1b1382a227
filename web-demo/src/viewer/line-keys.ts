// Marking lines from the keyboard in the file view (the code focused): Alt+↓/↑ marks the next or
// previous line alone, Shift+↓/↑ moves the free end of the marked range while the line where marking
// began (the anchor) stays, Shift+Home/End stretches it to the file's first or last line. With nothing
// marked yet, marking starts at the first line on screen. Owns the step from a key to the new range;
// the viewer applies it (selectLines: the URL's #L, the highlight) and scrolls the moved end into view.

export interface LineStep {
  lines: [number, number];
  anchor: number;
  /** The line that moved (to keep on screen). */
  moved: number;
}

export interface LineKey {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

/**
 * The range after `e`, or null when the key is not one of these. `marked`: the range marked now;
 * `anchor`: where keyboard or click marking began (ignored unless it is one end of `marked`);
 * `total`: the file's lines; `firstShown`: the first line on screen.
 */
export function lineStep(e: LineKey, marked: [number, number] | undefined, anchor: number | null, total: number, firstShown: number): LineStep | null {
  if (e.ctrlKey || e.metaKey || total < 1 || e.shiftKey === e.altKey) return null;
  const dir = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
  const clamp = (n: number) => Math.min(total, Math.max(1, n));
  const start = clamp(firstShown);
  if (e.altKey) {
    if (!dir) return null;
    const n = marked ? clamp((dir > 0 ? marked[1] : marked[0]) + dir) : start;
    return { lines: [n, n], anchor: n, moved: n };
  }
  const end = e.key === 'Home' ? 1 : e.key === 'End' ? total : null;
  if (!dir && end === null) return null;
  let a: number;
  let free: number;
  if (!marked) {
    a = free = start;
    if (end === null) return { lines: [a, a], anchor: a, moved: a };
  } else {
    // The anchor when it is the range's end; else (a hit's lines, a link's) the range grows at its end.
    a = anchor === marked[1] ? marked[1] : marked[0];
    free = a === marked[0] ? marked[1] : marked[0];
  }
  const moved = end ?? clamp(free + dir);
  return { lines: [Math.min(a, moved), Math.max(a, moved)], anchor: a, moved };
}
