// Replays a log's events into threads: each thread's committed messages in order (ordinal = 1-based
// position among its message_added events), the code anchors attached to them (after edits) and the
// explicit relations. Pure and deterministic: the same events give the same anchors, numbered in log
// order. Events that make no sense in their place (a second message_added for one id, an edit of an
// unknown message, a relation past the messages committed before it) are skipped and counted.
// threadMessages() gives one thread's messages with their text, for a conversation panel. Resolving
// anchors against the code belongs to anchors.ts.
import type { CodeAnchor, RelateSource } from './events.ts';
import type { LoggedEvent } from './log.ts';

export interface ProjectedMessage {
  ordinal: number;
  message_id: string;
  role: string;
  /** Log line of its message_added. */
  line: number;
}

export interface ProjectedAnchor {
  /** 1-based, in log order (event line, then position in the event): stable across rebuilds. */
  anchorNo: number;
  anchorId: string;
  origin: 'attachment' | 'relate';
  /** Log line of the event that set it. */
  line: number;
  /** The message it is attached to (attachments); null for relations. */
  messageId: string | null;
  startOrdinal: number;
  endOrdinal: number;
  source: RelateSource | null;
  anchor: CodeAnchor;
}

export type ProjectionSkip = 'duplicate_message' | 'orphan_edit' | 'invalid_relate';

export interface ThreadProjection {
  threadId: string;
  messages: ProjectedMessage[];
  anchors: ProjectedAnchor[];
  skipped: Record<ProjectionSkip, number>;
}

interface Draft {
  messages: ProjectedMessage[];
  byId: Map<string, { message: ProjectedMessage; line: number; attachments: CodeAnchor[] }>;
  relates: Array<Omit<ProjectedAnchor, 'anchorNo'>>;
  skipped: Record<ProjectionSkip, number>;
}

/** Every thread of a log, by thread id (in order of first appearance). */
export function projectThreads(events: readonly LoggedEvent[]): Map<string, ThreadProjection> {
  const drafts = new Map<string, Draft>();
  const draftOf = (id: string): Draft => {
    let d = drafts.get(id);
    if (!d) drafts.set(id, (d = { messages: [], byId: new Map(), relates: [], skipped: { duplicate_message: 0, orphan_edit: 0, invalid_relate: 0 } }));
    return d;
  };
  for (const { line, event } of events) {
    const d = draftOf(event.thread_id);
    if (event.type === 'message_added') {
      if (d.byId.has(event.message_id)) {
        d.skipped.duplicate_message++;
        continue;
      }
      const message = { ordinal: d.messages.length + 1, message_id: event.message_id, role: event.role, line };
      d.messages.push(message);
      d.byId.set(event.message_id, { message, line, attachments: event.attachments });
    } else if (event.type === 'message_edited') {
      const m = d.byId.get(event.message_id);
      if (!m) {
        d.skipped.orphan_edit++;
        continue;
      }
      if (event.attachments) {
        m.attachments = event.attachments;
        m.line = line;
      }
    } else {
      // Only messages committed before the relation can be in its range.
      if (event.end_ordinal > d.messages.length) {
        d.skipped.invalid_relate++;
        continue;
      }
      d.relates.push({
        anchorId: event.code_ref.id ?? `rel-${d.relates.length + 1}`,
        origin: 'relate', line, messageId: null,
        startOrdinal: event.start_ordinal, endOrdinal: event.end_ordinal, source: event.source, anchor: event.code_ref,
      });
    }
  }
  const out = new Map<string, ThreadProjection>();
  for (const [threadId, d] of drafts) {
    // Log order; within one event, attachment order (a relation holds one anchor).
    const anchors = d.relates.map((a) => ({ a, pos: 0 }));
    for (const { message, line, attachments } of d.byId.values()) {
      attachments.forEach((anchor, i) => {
        const a: Omit<ProjectedAnchor, 'anchorNo'> = {
          anchorId: anchor.id ?? `${message.message_id}#${i + 1}`,
          origin: 'attachment', line, messageId: message.message_id,
          startOrdinal: message.ordinal, endOrdinal: message.ordinal, source: null, anchor,
        };
        anchors.push({ a, pos: i });
      });
    }
    anchors.sort((x, y) => x.a.line - y.a.line || x.pos - y.pos);
    out.set(threadId, {
      threadId,
      messages: d.messages,
      anchors: anchors.map(({ a }, n) => ({ ...a, anchorNo: n + 1 })),
      skipped: d.skipped,
    });
  }
  return out;
}

export interface MessageText {
  ordinal: number;
  message_id: string;
  role: string;
  text: string;
  edited: boolean;
  attachments: number;
}

/**
 * One thread's committed messages with their text as last edited (a conversation panel), by the same
 * rules as projectThreads (a second message_added for an id is skipped; an edit changes text and,
 * when given, attachments); and every thread id of the log, in order of first appearance.
 */
export function threadMessages(events: readonly LoggedEvent[], threadId: string): { threads: string[]; messages: MessageText[] | null } {
  const threads = new Set<string>();
  const messages: MessageText[] = [];
  const byId = new Map<string, MessageText>();
  for (const { event } of events) {
    threads.add(event.thread_id);
    if (event.thread_id !== threadId) continue;
    if (event.type === 'message_added') {
      if (byId.has(event.message_id)) continue;
      const m = { ordinal: messages.length + 1, message_id: event.message_id, role: event.role, text: event.text, edited: false, attachments: event.attachments.length };
      messages.push(m);
      byId.set(event.message_id, m);
    } else if (event.type === 'message_edited') {
      const m = byId.get(event.message_id);
      if (!m) continue;
      m.edited = true;
      if (event.text !== undefined) m.text = event.text;
      if (event.attachments) m.attachments = event.attachments.length;
    }
  }
  return { threads: [...threads], messages: threads.has(threadId) ? messages : null };
}
