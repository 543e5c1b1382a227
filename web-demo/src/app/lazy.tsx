// A component whose module loads when it is first drawn (a chunk of its own), so the JS a page needs
// before a workspace is searchable stays small: the file viewer, Ctrl-P, the file tree, the "not in this
// browser" screen. `preload()` fetches the chunk ahead of need (the explorer does it for the viewer and
// Ctrl-P once a workspace is open, in idle time); a `fallback` is drawn meanwhile (Ctrl-P's stand-in box,
// finder/shell.tsx). Owns that wrapper only.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export type LazyComponent<P extends object> = ComponentType<P> & { preload(): Promise<ComponentType<P>> };

/** `fallback`: drawn until the module is in (by default nothing). */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback?: ComponentType<P>): LazyComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => (loading ??= load().then((c) => (loaded = c)));
  function Lazy(props: P) {
    const [C, setC] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (C) return;
      let live = true;
      void preload().then((c) => live && setC(() => c));
      return () => void (live = false);
    }, []);
    const F = fallback;
    return C ? <C {...props} /> : F ? <F {...props} /> : null;
  }
  return Object.assign(Lazy, { preload });
}
