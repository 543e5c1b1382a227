// Message ↔ code in the viewer (core/intercom through the Worker): a conversation log handed to the
// Worker (a file the user picks) or named in the workspace's own files, its thread's messages for the
// panel (intercom messages), the open file's gutter markers (intercom markers: the lines messages
// relate to, explicit stronger than inferred), and the selected message. Owns these flows; drawing
// is Conversation.tsx and the gutter column markers.tsx. The page computes no match itself.
import { batch, signal } from '@preact/signals';
import type { IntercomMessagesAnswer, Marker } from '../../../core/contract/intercom.ts';
import { current, notice, view } from '../app/state.ts';

export interface Conversation {
  log: string;
  thread: string;
  answer: IntercomMessagesAnswer;
}

export interface FileMarkers {
  path: string;
  /** Markers by their first line. */
  starts: Map<number, Marker[]>;
  /** Every line a marker covers → the strongest marker there (for the thin bar). */
  covered: Map<number, Marker>;
  hint?: string;
}

export const conversation = signal<Conversation | null>(null);
export const panelOpen = signal(false);
export const selectedOrdinal = signal<number | null>(null);
/** The ordinals of the marker last clicked (shown as related in the panel). */
export const relatedOrdinals = signal<number[]>([]);
export const fileMarkers = signal<FileMarkers | null>(null);

let markerSeq = 0;

/** Opens a log the Worker can read (a handed-over one or a workspace file) on a thread (default: its first). */
export async function openLog(log: string, thread?: string): Promise<boolean> {
  const ws = current.value;
  if (!ws) return false;
  const answer = await ws.call('intercomMessages', { log, thread_id: thread });
  if (answer.status === 'error') {
    notice.value = { kind: 'error', text: answer.error?.message ?? 'the log could not be read', hint: answer.hint };
    return false;
  }
  batch(() => {
    conversation.value = { log, thread: answer.thread_id, answer };
    selectedOrdinal.value = null;
    relatedOrdinals.value = [];
    panelOpen.value = true;
  });
  await refreshMarkers();
  return true;
}

/** Hands a picked .ndjson / .jsonl file to the Worker (under its file name) and opens it. */
export async function loadLogFile(file: File): Promise<boolean> {
  const ws = current.value;
  if (!ws) return false;
  try {
    const { location } = await ws.addLog(file.name, await file.text());
    return await openLog(location);
  } catch (e) {
    const err = e as { message?: string; hint?: string };
    notice.value = { kind: 'error', text: err.message ?? String(e), hint: err.hint };
    return false;
  }
}

export function closeConversation(): void {
  batch(() => {
    conversation.value = null;
    fileMarkers.value = null;
    selectedOrdinal.value = null;
    relatedOrdinals.value = [];
  });
}

/** Loads the gutter markers of the file on screen (or of `path`) for the open thread. */
export async function refreshMarkers(path = view.value?.path): Promise<void> {
  const ws = current.value;
  const c = conversation.value;
  const seq = ++markerSeq;
  if (!ws || !c || !path) {
    fileMarkers.value = null;
    return;
  }
  const res = await ws.call('intercomMarkers', { log: c.log, thread_id: c.thread, file: path });
  if (seq !== markerSeq) return;
  const starts = new Map<number, Marker[]>();
  const covered = new Map<number, Marker>();
  for (const m of res.markers) {
    starts.set(m.line_start, [...(starts.get(m.line_start) ?? []), m]);
    for (let n = m.line_start; n <= m.line_end; n++) {
      const had = covered.get(n);
      if (!had || (had.match_kind === 'inferred' && m.match_kind === 'explicit')) covered.set(n, m);
    }
  }
  fileMarkers.value = { path, starts, covered, hint: res.status === 'ok' ? undefined : res.hint };
}

/** A marker clicked: the panel opens, scrolls to the first message there and selects it. */
export function selectMarker(markers: readonly Marker[]): void {
  const ordinals = [...new Set(markers.flatMap((m) => m.ordinals))].sort((a, b) => a - b);
  if (!ordinals.length) return;
  batch(() => {
    relatedOrdinals.value = ordinals;
    selectedOrdinal.value = ordinals[0];
    panelOpen.value = true;
  });
}

export function selectMessage(ordinal: number): void {
  selectedOrdinal.value = ordinal;
}
