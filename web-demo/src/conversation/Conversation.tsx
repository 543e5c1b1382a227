// The conversation panel beside the code: load a log (a picked .ndjson file, or a log among the
// workspace's files), choose its thread, read its messages in order; the message a gutter marker
// points to is scrolled into view and selected, the others of that marker shown as related. The
// status and hint of every answer stay visible. Owns this panel; the flows are controller.ts.
import { useEffect, useRef, useState } from 'preact/hooks';
import { closeConversation, conversation, fileMarkers, loadLogFile, openLog, panelOpen, relatedOrdinals, selectedOrdinal, selectMessage } from './controller.ts';

function LoadLog() {
  const [path, setPath] = useState('');
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="log-load">
      <p>Load a conversation's event log (NDJSON, one event a line: <code>message_added</code>, <code>message_edited</code>, <code>message_range_related</code>) to see which messages relate to this code.</p>
      <button onClick={() => input.current?.click()}>Choose a log file…</button>
      <input ref={input} id="log-input" type="file" accept=".ndjson,.jsonl" hidden onChange={(e) => {
        const el = e.currentTarget as HTMLInputElement;
        const f = el.files?.[0];
        if (f) void loadLogFile(f);
        el.value = '';
      }} />
      <form onSubmit={(e) => (e.preventDefault(), path.trim() && void openLog(path.trim()))}>
        <input id="log-path" placeholder="or a log in this workspace: .sessions/abc.events.ndjson" value={path} onInput={(e) => setPath((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit">Open</button>
      </form>
    </div>
  );
}

export function ConversationPanel() {
  const c = conversation.value;
  const sel = selectedOrdinal.value;
  const related = relatedOrdinals.value;
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (sel === null) return;
    list.current?.querySelector(`[data-ordinal="${sel}"]`)?.scrollIntoView({ block: 'center' });
  }, [sel, c]);
  if (!panelOpen.value) return null;
  const a = c?.answer;
  const skipped = a?.log ? Object.values(a.log.skipped).reduce((x, y) => x + y, 0) : 0;
  const fm = fileMarkers.value;
  return (
    <aside class="conversation" aria-label="Conversation">
      <header>
        <h2>Conversation</h2>
        {c && (
          <button class="icon" title="Load another log" aria-label="Load another log" onClick={() => closeConversation()}>⟲</button>
        )}
        <button class="icon" aria-label="Close conversation" onClick={() => (panelOpen.value = false)}>×</button>
      </header>
      {!c || !a ? (
        <LoadLog />
      ) : (
        <>
          <div class="conv-meta">
            <code title={c.log}>{c.log.slice(c.log.lastIndexOf('/') + 1)}</code>
            {a.threads.length > 1 ? (
              <select aria-label="Thread" value={c.thread} onChange={(e) => void openLog(c.log, (e.currentTarget as HTMLSelectElement).value)}>
                {a.threads.map((t) => <option value={t}>{t}</option>)}
              </select>
            ) : (
              <span> · thread {c.thread}</span>
            )}
            <span class="muted"> · {a.total} message{a.total === 1 ? '' : 's'}{skipped ? ` · ${skipped} log lines skipped` : ''}</span>
          </div>
          <p class="conv-status muted">
            {fm?.starts.size ? `${[...fm.starts.values()].flat().length} marked range${fm.starts.size === 1 ? '' : 's'} in this file: click a [n] in the gutter` : fm?.hint ?? 'no message relates to this file'}
            {a.hint && ` · ${a.hint}`}
          </p>
          <ol class="messages" ref={list}>
            {a.messages.map((m) => (
              <li
                data-ordinal={m.ordinal}
                class={`msg role-${m.role}${m.ordinal === sel ? ' selected' : ''}${related.includes(m.ordinal) ? ' related' : ''}`}
                aria-selected={m.ordinal === sel}
                onClick={() => selectMessage(m.ordinal)}
              >
                <div class="msg-head">
                  <b>#{m.ordinal}</b> <span class="badge">{m.role}</span>
                  {m.edited && <span class="badge warn">edited</span>}
                  {m.attachments > 0 && <span class="muted"> · {m.attachments} attachment{m.attachments === 1 ? '' : 's'}</span>}
                  <span class="muted msg-id">{m.message_id}</span>
                </div>
                <div class="msg-text">{m.text}</div>
              </li>
            ))}
          </ol>
        </>
      )}
    </aside>
  );
}
