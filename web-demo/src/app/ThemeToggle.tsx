// The top bar's light/dark switch (app/theme.ts keeps the choice; the system's theme is the default).
import { effectiveTheme, theme, toggleTheme } from './theme.ts';

export function ThemeToggle() {
  const dark = effectiveTheme(theme.value) === 'dark';
  return (
    <button
      class="icon theme-toggle"
      aria-label="Dark theme"
      title={`Dark theme: ${dark ? 'on' : 'off'}${theme.value === 'system' ? ' (as the system)' : ''}`}
      aria-pressed={dark}
      onClick={toggleTheme}
    >
      {dark ? '☀' : '☾'}
    </button>
  );
}
