// Keyboard-first navigation: `/` focuses the search, j/k move through the hits, Enter opens one,
// Esc closes what is on top (a dialog, the definitions list, the viewer), Ctrl-P (⌘P) finds a file,
// `?` shows the help. Owns the key map; each action is its controller's.
import { definitions } from '../viewer/controller.ts';
import { closeViewer } from '../viewer/controller.ts';
import { current, overlay, results, selected, takeOverAsk, view } from './state.ts';
import { moveSelection } from '../search/controller.ts';
import { openHit } from '../search/Results.tsx';
import { SEARCH_INPUT_ID } from '../search/SearchBar.tsx';

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

function openSelected(): void {
  const h = results.value?.hits[selected.value];
  if (h) void openHit(h);
}

export function installKeys(): void {
  document.addEventListener('keydown', (e) => {
    if (takeOverAsk.value) return;
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'p') {
      e.preventDefault();
      if (current.value) overlay.value = overlay.value === 'quick-open' ? 'none' : 'quick-open';
      return;
    }
    if (e.key === 'Escape') {
      if (overlay.value !== 'none') overlay.value = 'none';
      else if (definitions.value) definitions.value = null;
      else if (view.value) closeViewer();
      else if (typing(e.target)) (e.target as HTMLElement).blur();
      return;
    }
    if (overlay.value === 'quick-open') return;
    const inSearch = (e.target as HTMLElement | null)?.id === SEARCH_INPUT_ID;
    if (inSearch) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        moveSelection(e.key === 'ArrowDown' ? 1 : -1);
      } else if (e.key === 'Enter') {
        e.preventDefault();
        openSelected();
      }
      return;
    }
    if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === '/') {
      e.preventDefault();
      document.getElementById(SEARCH_INPUT_ID)?.focus();
    } else if (e.key === 'j' || e.key === 'k') {
      moveSelection(e.key === 'j' ? 1 : -1);
      if (view.value) openSelected();
    } else if (e.key === 'Enter') {
      openSelected();
    } else if (e.key === '?') {
      overlay.value = overlay.value === 'help' ? 'none' : 'help';
    }
  });
}
