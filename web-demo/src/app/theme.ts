// The colour theme: the system's (prefers-color-scheme) unless the user picked light or dark with the
// top bar's toggle; the choice is kept in localStorage and set as <html data-theme> (index.html sets
// it before the first paint, so a dark page never flashes light). Owns the choice; the colours are
// styles.css's (one set of variables per theme, highlight.js tokens included).
import { signal } from '@preact/signals';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'hci-theme';

function stored(): ThemeChoice {
  try {
    const t = localStorage.getItem(KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

export const theme = signal<ThemeChoice>(stored());

const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
/** The system's preference, followed while the choice is 'system'. */
export const systemDark = signal(media?.matches ?? false);
media?.addEventListener('change', (e) => (systemDark.value = e.matches));

/** The theme in effect: the choice, or the system's. */
export function effectiveTheme(choice = theme.value): 'light' | 'dark' {
  return choice === 'system' ? (systemDark.value ? 'dark' : 'light') : choice;
}

export function setTheme(choice: ThemeChoice): void {
  theme.value = choice;
  try {
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    /* storage refused: the choice lasts this page */
  }
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** The toggle: to the other theme than the one shown; back to following the system when that is the system's. */
export function toggleTheme(): void {
  const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
  setTheme(next === (systemDark.value ? 'dark' : 'light') ? 'system' : next);
}
