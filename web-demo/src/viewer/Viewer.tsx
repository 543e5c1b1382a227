// The file viewer: the file's indexed text with syntax colouring, the marked range (a hit, a
// permalink, an outline symbol) highlighted and scrolled into view, the gutter (line numbers, then any
// columns other features add: gutter.ts), the outline beside it, tabs for its paired files, "why this
// result", the conversation panel (conversation/), Ctrl-click go to definition, lines marked by click or
// from the keyboard (line-keys.ts), and a permalink. Owns the drawing; loading is controller.ts.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { current, view } from '../app/state.ts';
import { bytes, pairLabel } from '../app/format.ts';
import { closeExplain, closeViewer, definitions, explainHit, explanation, file, goToDefinition, openFile, selectLines } from './controller.ts';
import { gutterColumns, onGutterChange, type GutterContext } from './gutter.ts';
import { highlightLines } from './highlight.ts';
import { lineStep } from './line-keys.ts';
import { Outline } from './Outline.tsx';
import { Explain } from './Explain.tsx';
import { ConversationPanel } from '../conversation/Conversation.tsx';
import { conversation, panelOpen } from '../conversation/controller.ts';
import { installMessageGutter } from '../conversation/markers.tsx';
import { narrow, outlineShown, panes, setPanes, toggleOutline } from '../app/layout.ts';
import { Splitter } from '../app/Splitter.tsx';

/** The identifier under a click (the caret position the browser computes for the point). */
function wordAt(x: number, y: number): string | null {
  const doc = document as Document & { caretRangeFromPoint?(x: number, y: number): Range | null };
  const range = doc.caretRangeFromPoint?.(x, y);
  const node = range?.startContainer;
  if (!range || !node || node.nodeType !== Node.TEXT_NODE) return null;
  const text = node.textContent ?? '';
  const isId = (c: string | undefined) => !!c && /[\p{L}\p{N}_]/u.test(c);
  let a = range.startOffset;
  let b = range.startOffset;
  while (a > 0 && isId(text[a - 1])) a--;
  while (b < text.length && isId(text[b])) b++;
  return b > a ? text.slice(a, b) : null;
}

function useGutterVersion(): number {
  const [v, setV] = useState(0);
  useEffect(() => onGutterChange(() => setV((x) => x + 1)), []);
  return v;
}

// The message markers' gutter column comes with the viewer (its chunk loads after the page's start).
installMessageGutter();

export function Viewer() {
  const v = view.value;
  // The answer for the file on screen only (the next file's answer may still be on its way).
  const f = file.value && file.value.path === v?.path ? file.value : null;
  const ws = current.value;
  const [html, setHtml] = useState<{ path: string; lines: string[]; grammar: string | null } | null>(null);
  const [anchor, setAnchor] = useState<number | null>(null);
  const [copied, setCopied] = useState(false);
  const code = useRef<HTMLDivElement>(null);
  /** The line a key just moved the mark to: kept on screen (nearest), instead of the range's start centred. */
  const keyMoved = useRef<number | null>(null);
  const gutterVersion = useGutterVersion();

  useEffect(() => {
    if (!f || f.status !== 'ok') return;
    let live = true;
    void highlightLines(f.text ?? '', f.lang ?? 'text').then((h) => live && setHtml({ path: f.path, ...h }));
    return () => void (live = false);
  }, [f]);

  const ready = !!html && html.path === v?.path;
  const lines = v?.lines;
  useEffect(() => {
    if (!ready || !lines) return;
    const moved = keyMoved.current;
    keyMoved.current = null;
    if (moved !== null) code.current?.querySelector(`[data-line="${moved}"]`)?.scrollIntoView({ block: 'nearest' });
    else code.current?.querySelector(`[data-line="${lines[0]}"]`)?.scrollIntoView({ block: lines[1] - lines[0] > 30 ? 'start' : 'center' });
  }, [ready, v?.path, lines?.[0], lines?.[1]]);

  const ctx: GutterContext | null = v && ws ? { workspace: ws.name, path: v.path, lines } : null;
  const extra = useMemo(() => {
    const cols = gutterColumns();
    if (ctx) cols.forEach((c) => void c.prepare?.(ctx));
    return cols;
  }, [v?.path, gutterVersion]);

  if (!v) return null;
  const group = f?.status === 'ok' ? [...new Set([v.path, ...(f.paired_files ?? []).map((p) => p.path)])].sort() : [v.path];
  const markup = group[0];

  const onLineNumber = (n: number, e: MouseEvent) => {
    if (e.shiftKey && anchor !== null) selectLines([Math.min(anchor, n), Math.max(anchor, n)]);
    else {
      setAnchor(n);
      selectLines([n, n]);
    }
  };
  /** The first line on screen: where a mark made from the keyboard starts when none is there. */
  const firstShown = (): number => {
    const box = code.current?.getBoundingClientRect();
    const row = box && (document.elementFromPoint(box.left + box.width / 2, box.top + 4) as HTMLElement | null)?.closest('[data-line]');
    return Number(row?.getAttribute('data-line')) || 1;
  };
  const onCodeKey = (e: KeyboardEvent) => {
    if (!ready) return;
    const step = lineStep(e, lines, anchor, html!.lines.length, firstShown());
    if (!step) return;
    e.preventDefault();
    setAnchor(step.anchor);
    keyMoved.current = step.moved;
    selectLines(step.lines);
  };
  const onCodeClick = (e: MouseEvent) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    const w = wordAt(e.clientX, e.clientY);
    if (w) {
      e.preventDefault();
      void goToDefinition(w);
    }
  };

  return (
    <section class="viewer" aria-label="File viewer">
      <header class="viewer-head">
        {(narrow.value || panes.value.resultsHidden) && (
          <button class="back-to-results" onClick={() => (narrow.value ? closeViewer() : setPanes({ resultsHidden: false }))} title={narrow.value ? 'Back to the hits (Esc)' : 'Show the hits beside the file'}>
            ← Results
          </button>
        )}
        <div class="tabs" role="tablist" aria-label="This file and its paired files">
          {group.map((p) => (
            <button role="tab" aria-selected={p === v.path} class={`tab${p === v.path ? ' on' : ''}`} onClick={() => p !== v.path && void openFile(p)} title={p}>
              {p === markup ? p.slice(p.lastIndexOf('/') + 1) : pairLabel(p, markup)}
            </button>
          ))}
        </div>
        <span class="meta">
          {f?.status === 'ok' ? (
            <>
              <span class={`badge lang-${f.lang}`}>{f.lang}</span> {f.line_count} lines · {bytes(f.size)}
              {f.kinds?.map((k) => <span class="badge warn">{k}</span>)}
            </>
          ) : (
            f?.error?.message
          )}
        </span>
        <span class="actions">
          {v.hitId && (
            <button onClick={() => void (explanation.value ? closeExplain() : explainHit())} aria-pressed={!!explanation.value}>
              Why this result?
            </button>
          )}
          <button id="conversation-toggle" title="Messages of a conversation that relate to this code" aria-pressed={panelOpen.value} onClick={() => (panelOpen.value = !panelOpen.value)}>
            Conversation{conversation.value ? ` (${conversation.value.answer.total})` : ''}
          </button>
          <button aria-pressed={outlineShown()} title="Show the outline of the file" onClick={toggleOutline}>
            Outline
          </button>
          <button aria-pressed={panes.value.wrap} title="Wrap long lines" onClick={() => setPanes({ wrap: !panes.value.wrap })}>
            Wrap
          </button>
          <button
            title="Copy a link to these lines"
            onClick={() =>
              void (navigator.clipboard ? navigator.clipboard.writeText(location.href) : Promise.reject(new Error('no clipboard'))).then(
                () => {
                  setCopied(true);
                  setTimeout(() => setCopied(false), 2500);
                },
                () => prompt('Copy this link', location.href),
              )
            }
          >
            {copied ? 'Copied ✓' : 'Link'}
          </button>
          <span class="sr-only" role="status">{copied ? 'Link copied to the clipboard' : ''}</span>
          <button class="icon" aria-label="Close viewer (Esc)" onClick={() => closeViewer()}>×</button>
        </span>
      </header>
      <div class="path-line" title={v.path}>
        {v.path}
        {lines && <span class="range"> L{lines[0]}{lines[1] !== lines[0] ? `–${lines[1]}` : ''}</span>}
        {f?.hint && <span class="hint"> · {f.hint}</span>}
        <span class="muted ctrl-tip"> · Ctrl-click an identifier: go to definition</span>
      </div>
      <div
        class={`viewer-body${panes.value.wrap ? ' wrap' : ''}`}
        style={{ '--outline-w': `${panes.value.outline}px`, '--side-w': `${panes.value.side}px` }}
      >
        {outlineShown() && (
          <>
            <Outline />
            {!narrow.value && <Splitter pane="outline" dir={1} label="Resize the outline" collapse="outlineHidden" />}
          </>
        )}
        <div
          class="code"
          ref={code}
          onClick={onCodeClick}
          onKeyDown={onCodeKey}
          data-grammar={html?.grammar ?? ''}
          tabIndex={0}
          role="region"
          aria-label={`Code of ${v.path}${lines ? `, lines ${lines[0]}–${lines[1]} marked` : ''}`}
          aria-keyshortcuts="Shift+ArrowDown Shift+ArrowUp Shift+Home Shift+End Alt+ArrowDown Alt+ArrowUp"
        >
          {!ready ? (
            <p class="muted pad">{f?.status === 'error' ? `${f.error?.code}: ${f.error?.message}` : 'loading…'}</p>
          ) : (
            html!.lines.map((h, i) => {
              const n = i + 1;
              const on = !!lines && n >= lines[0] && n <= lines[1];
              return (
                <div class={`row${on ? ' hl' : ''}${on && n === lines![0] ? ' hl-first' : ''}`} data-line={n} key={n}>
                  <span class="ln" onClick={(e) => onLineNumber(n, e as unknown as MouseEvent)}>{n}</span>
                  {ctx && extra.map((c) => <span class={`gutter g-${c.id}`} style={{ width: c.width }}>{c.cell(n, ctx)}</span>)}
                  <span class="src hljs" dangerouslySetInnerHTML={{ __html: h || ' ' }} />
                </div>
              );
            })
          )}
        </div>
        {(explanation.value || panelOpen.value) && (
          <>
            {!narrow.value && <Splitter pane="side" dir={-1} label="Resize the side panel" />}
            <div class="side-panels">
              <Explain onClose={closeExplain} />
              <ConversationPanel />
            </div>
          </>
        )}
      </div>
      {definitions.value && definitions.value.locations.length > 1 && (
        <div class="popover definitions" role="dialog" aria-label="Definitions">
          <h2>
            {definitions.value.locations.length} definitions of <code>{definitions.value.name}</code>
          </h2>
          <ul>
            {definitions.value.locations.map((l) => (
              <li>
                <button class="def-loc" onClick={() => void openFile(l.path, { lines: [l.start_line, l.end_line] })}>
                  <span class="sym-kind">{l.kind}</span> {l.path}:{l.start_line}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
