// What Ctrl-P shows while the finder's own chunk (QuickOpen.tsx) is still loading: the same dialog's
// box, focused in the commit that draws it, so the keys typed right after Ctrl-P land in it; the
// finder starts from what was typed there (typedEarly). Owns that stand-in only.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { overlay } from '../app/state.ts';

/** Text typed into the stand-in, taken over (and cleared) by the finder when it mounts. */
export const typedEarly = { text: '' };

export function QuickOpenShell() {
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    typedEarly.text = '';
    input.current?.focus();
  }, []);
  return (
    <div class="modal-backdrop" onClick={() => (overlay.value = 'none')}>
      <div class="modal quick-open" role="dialog" aria-label="Go to file" onClick={(e) => e.stopPropagation()}>
        <input ref={input} class="quick-input" aria-label="File name" placeholder="Go to file" onInput={(e) => (typedEarly.text = (e.target as HTMLInputElement).value)} />
      </div>
    </div>
  );
}
