// The gutter column of message ↔ code (viewer/gutter.ts): `[3]` on the first line of each range that
// messages of the open thread relate to (explicit relations drawn stronger than inferred ones, stale
// anchors dashed), a thin bar along the rest of the range; a click selects that message in the
// conversation panel. Owns this column, there only while a conversation is open; the markers come
// from controller.ts.
import { effect } from '@preact/signals';
import { addGutterColumn } from '../viewer/gutter.ts';
import { conversation, fileMarkers, refreshMarkers, selectMarker } from './controller.ts';

/** `3`, `3–5` (contiguous) or `3,7` (+N past three). */
export function ordinalLabel(ordinals: readonly number[]): string {
  const o = [...new Set(ordinals)].sort((a, b) => a - b);
  if (o.length > 1 && o[o.length - 1] - o[0] === o.length - 1) return `${o[0]}–${o[o.length - 1]}`;
  return o.length > 3 ? `${o.slice(0, 2).join(',')}+${o.length - 2}` : o.join(',');
}

/** Keeps the column in the gutter while a conversation is open (the viewer's module calls it once, as it loads). */
export function installMessageGutter(): () => void {
  let remove: (() => void) | null = null;
  return effect(() => {
    const open = !!conversation.value;
    if (open && !remove) remove = addColumn();
    else if (!open && remove) {
      remove();
      remove = null;
    }
  });
}

function addColumn(): () => void {
  return addGutterColumn({
    id: 'msg',
    width: '5.2em',
    prepare: (ctx) => refreshMarkers(ctx.path),
    cell(line, ctx) {
      const fm = fileMarkers.value;
      if (!conversation.value || !fm || fm.path !== ctx.path) return null;
      const here = fm.starts.get(line);
      if (here) {
        const ordinals = here.flatMap((m) => m.ordinals);
        const explicit = here.some((m) => m.match_kind === 'explicit');
        const stale = here.every((m) => m.stale);
        const title = `message${ordinals.length > 1 ? 's' : ''} ${ordinals.map((n) => `#${n}`).join(', ')} · ${explicit ? 'explicit relation' : 'inferred from an attachment'}${stale ? ' · stale' : ''} · lines ${here[0].line_start}–${here[0].line_end}`;
        return (
          <button class={`msg-marker ${explicit ? 'explicit' : 'inferred'}${stale ? ' stale' : ''}`} data-ordinals={ordinals.join(',')} title={title} onClick={(e) => (e.stopPropagation(), selectMarker(here))}>
            [{ordinalLabel(ordinals)}]
          </button>
        );
      }
      const m = fm.covered.get(line);
      return m ? <span class={`msg-span ${m.match_kind}`} aria-hidden="true" /> : null;
    },
  });
}
