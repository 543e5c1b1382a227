// A component whose module loads when it is first drawn (a chunk of its own), so the JS a page needs
// before a workspace is searchable stays small: the file tree, the "not in this browser" screen.
// Owns that wrapper only.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  return function Lazy(props: P) {
    const [C, setC] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (C) return;
      loading ??= load().then((c) => (loaded = c));
      let live = true;
      void loading.then((c) => live && setC(() => c));
      return () => void (live = false);
    }, []);
    return C ? <C {...props} /> : null;
  };
}
