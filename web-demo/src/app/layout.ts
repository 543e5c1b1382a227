// The explorer's pane layout: whether the screen is narrow (one column: the hits or the file), the
// widths of the resizable panes (results, outline, the side panel: explain / conversation), which are
// collapsed, whether long code lines wrap, and whether the left column shows the hits or the files. Kept in localStorage so a reload keeps the layout.
// Owns these preferences; App.tsx and Viewer.tsx draw them, Splitter.tsx changes the widths.
import { signal } from '@preact/signals';

/** At or below this width the explorer is one column (styles.css's media query says the same). */
export const NARROW_PX = 760;

export interface Panes {
  /** Widths in px; the code column takes the rest. */
  results: number;
  outline: number;
  side: number;
  resultsHidden: boolean;
  outlineHidden: boolean;
  wrap: boolean;
}

export const PANE_LIMITS: Record<'results' | 'outline' | 'side', [number, number]> = {
  results: [220, 900],
  outline: [120, 480],
  side: [220, 640],
};

const KEY = 'hci-panes';
const DEFAULTS: Panes = { results: 480, outline: 220, side: 320, resultsHidden: false, outlineHidden: false, wrap: false };

function load(): Panes {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Panes>;
    return { ...DEFAULTS, ...saved };
  } catch {
    return { ...DEFAULTS };
  }
}

export const panes = signal<Panes>(load());

export function setPanes(change: Partial<Panes>): void {
  const next = { ...panes.value, ...change };
  for (const k of ['results', 'outline', 'side'] as const) {
    const [lo, hi] = PANE_LIMITS[k];
    next[k] = Math.round(Math.min(hi, Math.max(lo, next[k])));
  }
  panes.value = next;
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    /* storage refused: the layout lasts this page */
  }
}

const query = typeof matchMedia === 'function' ? matchMedia(`(max-width: ${NARROW_PX}px)`) : null;
export const narrow = signal(query?.matches ?? false);
query?.addEventListener('change', (e) => (narrow.value = e.matches));

/** On a narrow screen the outline is folded until asked for (the code comes first); not kept. */
export const narrowOutline = signal(false);

/** Whether the outline shows now. */
export function outlineShown(): boolean {
  return narrow.value ? narrowOutline.value : !panes.value.outlineHidden;
}

export function toggleOutline(): void {
  if (narrow.value) narrowOutline.value = !narrowOutline.value;
  else setPanes({ outlineHidden: !panes.value.outlineHidden });
}

/** What the left column shows: the hits, or the file tree. */
export const paneTab = signal<'hits' | 'files'>('hits');
