// Ctrl-P: the quick file finder over the index's file list (app/file-list.ts, fetched once per
// index generation), fuzzy-ranked as you type; arrows or Ctrl-N/Ctrl-P move, Enter opens, Esc
// closes. Owns the dialog; opening is viewer/controller.ts.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { FileEntry } from '../../../core/contract/index.ts';
import { overlay } from '../app/state.ts';
import { loadFiles } from '../app/file-list.ts';
import { splitPath } from '../app/format.ts';
import { openFile } from '../viewer/controller.ts';
import { fuzzyMatch } from './fuzzy.ts';
import { typedEarly } from './shell.tsx';

function Marked({ text, at, offset }: { text: string; at: Set<number>; offset: number }) {
  return <>{[...text].map((c, i) => (at.has(i + offset) ? <b>{c}</b> : c))}</>;
}

export function QuickOpen() {
  const [files, setFiles] = useState<FileEntry[]>([]);
  // What was typed into the stand-in while this chunk loaded (shell.tsx), if anything.
  const [typed, setTyped] = useState(() => {
    const t = typedEarly.text;
    typedEarly.text = '';
    return t;
  });
  const [sel, setSel] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // Focus in the commit that puts the dialog in the page, before the browser handles another key:
  // from useEffect (after the next paint) the keys typed right after Ctrl-P went to the element
  // focused before — the search box — and the finder missed the first letters of the name.
  useLayoutEffect(() => input.current?.focus(), []);
  useEffect(() => void loadFiles().then(setFiles), []);
  const ranked = useMemo(() => {
    const out: Array<{ f: FileEntry; score: number; at: number[] }> = [];
    for (const f of files) {
      const m = fuzzyMatch(f.path, typed);
      if (m) out.push({ f, ...m });
    }
    if (typed) out.sort((a, b) => b.score - a.score || (a.f.path < b.f.path ? -1 : 1));
    return out.slice(0, 50);
  }, [files, typed]);
  const close = () => (overlay.value = 'none');
  const open = (i: number) => {
    const r = ranked[i];
    if (!r) return;
    close();
    void openFile(r.f.path);
  };
  const onKey = (e: KeyboardEvent) => {
    const down = e.key === 'ArrowDown' || (e.ctrlKey && e.key === 'n');
    const up = e.key === 'ArrowUp' || (e.ctrlKey && e.key === 'p');
    if (down || up) {
      e.preventDefault();
      e.stopPropagation();
      setSel((s) => Math.max(0, Math.min(ranked.length - 1, s + (down ? 1 : -1))));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      open(sel);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close();
    }
  };
  return (
    <div class="modal-backdrop" onClick={close}>
      <div class="modal quick-open" role="dialog" aria-label="Go to file" onClick={(e) => e.stopPropagation()}>
        <input
          ref={input}
          class="quick-input"
          placeholder={`Go to file (${files.length} indexed)`}
          value={typed}
          onInput={(e) => {
            setTyped((e.target as HTMLInputElement).value);
            setSel(0);
          }}
          onKeyDown={onKey}
        />
        <ul class="quick-list">
          {ranked.map((r, i) => {
            const { dir, name } = splitPath(r.f.path);
            const at = new Set(r.at);
            return (
              <li key={r.f.path} class={i === sel ? 'sel' : ''} onMouseEnter={() => setSel(i)} onClick={() => open(i)}>
                <span class="qname"><Marked text={name} at={at} offset={dir.length} /></span>
                <span class="qdir"><Marked text={dir} at={at} offset={0} /></span>
                <span class={`badge lang-${r.f.lang}`}>{r.f.lang}</span>
              </li>
            );
          })}
          {ranked.length === 0 && <li class="empty">no indexed file matches “{typed}”</li>}
        </ul>
      </div>
    </div>
  );
}
