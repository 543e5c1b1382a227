// A draggable, keyboard-operable divider between two panes (role="separator" with its value): drag it
// with a pointer, or focus it and press ←/→ (Shift: bigger steps), Home/End for the limits, Enter to
// collapse or restore the pane it sizes. Owns the gesture; the width it changes is layout.ts's.
import { useRef } from 'preact/hooks';
import { PANE_LIMITS, panes, setPanes, type Panes } from './layout.ts';

export function Splitter(p: {
  pane: 'results' | 'outline' | 'side';
  label: string;
  /** +1: dragging right widens the pane (it is on the left); -1: it narrows it (the pane is on the right). */
  dir: 1 | -1;
  collapse?: keyof Pick<Panes, 'resultsHidden' | 'outlineHidden'>;
}) {
  const start = useRef<{ x: number; w: number } | null>(null);
  const [lo, hi] = PANE_LIMITS[p.pane];
  const w = panes.value[p.pane];
  return (
    <div
      class={`splitter splitter-${p.pane}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={p.label}
      aria-valuemin={lo}
      aria-valuemax={hi}
      aria-valuenow={w}
      tabIndex={0}
      onPointerDown={(e) => {
        (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
        start.current = { x: e.clientX, w };
        e.preventDefault();
      }}
      onPointerMove={(e) => {
        if (start.current) setPanes({ [p.pane]: start.current.w + p.dir * (e.clientX - start.current.x) });
      }}
      onPointerUp={() => (start.current = null)}
      onPointerCancel={() => (start.current = null)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 80 : 20;
        const by: Record<string, number> = { ArrowRight: step * p.dir, ArrowLeft: -step * p.dir };
        if (e.key in by) setPanes({ [p.pane]: w + by[e.key] });
        else if (e.key === 'Home') setPanes({ [p.pane]: lo });
        else if (e.key === 'End') setPanes({ [p.pane]: hi });
        else if (e.key === 'Enter' && p.collapse) setPanes({ [p.collapse]: !panes.value[p.collapse] });
        else return;
        e.preventDefault();
      }}
    />
  );
}
