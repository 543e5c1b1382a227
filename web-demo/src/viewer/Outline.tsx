// The outline sidebar: the file's symbol tree from the index (core outline), the symbol holding the
// marked line picked out; a click marks and scrolls to its lines. Owns this tree.
import { useEffect, useRef } from 'preact/hooks';
import type { OutlineSymbol } from '../../../core/contract/index.ts';
import { view } from '../app/state.ts';
import { outline } from './controller.ts';
import { selectLines } from './controller.ts';

function Node({ s, depth, at }: { s: OutlineSymbol; depth: number; at: number | undefined }) {
  const holds = at !== undefined && s.start_line <= at && at <= s.end_line;
  const innermost = holds && !(s.children ?? []).some((c) => c.start_line <= at! && at! <= c.end_line);
  return (
    <>
      <li>
        <button
          class={`sym${innermost ? ' here' : ''}`}
          style={{ paddingLeft: `${0.4 + depth * 0.9}em` }}
          title={s.member_key ?? s.name}
          aria-current={innermost ? 'location' : undefined}
          onClick={() => selectLines([s.start_line, s.end_line])}
        >
          <span class={`sym-kind k-${s.kind}`}>{s.kind}</span> <span class="sym-name">{s.name}</span>
          <span class="sym-lines">{s.start_line}</span>
        </button>
      </li>
      {s.children?.map((c) => <Node s={c} depth={depth + 1} at={at} />)}
    </>
  );
}

export function Outline() {
  const o = outline.value;
  const at = view.value?.lines?.[0];
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    nav.current?.querySelector('.sym.here')?.scrollIntoView({ block: 'nearest' });
  }, [o, at]);
  return (
    <nav class="outline" aria-label="Outline" ref={nav}>
      <h2>Outline</h2>
      {!o || o.status !== 'ok' ? (
        <p class="muted">{o?.hint ?? o?.error?.message ?? '…'}</p>
      ) : o.symbols.length === 0 ? (
        <p class="muted">{o.hint ?? 'no symbols'}</p>
      ) : (
        <ul>
          {o.symbols.map((s) => <Node s={s} depth={0} at={at} />)}
        </ul>
      )}
    </nav>
  );
}
