// The workspaces screen: open a folder (directory picker, or a folder upload), a .zip (chosen or
// dropped anywhere on the page; a GitHub archive works), import an index file, open a published index
// by its URL (hosted.ts, through the ?index= link); the stored workspaces
// with their size, files, chunks and index age, and what can be done with each; storage use and
// persistence. Owns this screen; the flows are actions.ts.
import type { Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { current, overlay, storageInfo, workspaces } from '../app/state.ts';
import { age, bytes, count } from '../app/format.ts';
import { canPickDirectory, fromFolderUpload, fromZip, isZip, pickDirectory } from './sources.ts';
import { exportWorkspace, importIndexFile, openPicked, openWorkspace, refreshWorkspaces, reindex, removeWorkspace, toNotice } from './actions.ts';
import { notice } from '../app/state.ts';
import { lastPlaces, parseRoute } from '../app/router.ts';
import { go } from '../app/navigate.ts';

/**
 * A published index (`hci pack`) by its URL: opened as the link ?index=<url> would, read-only, no
 * upload. `keepPlace`: the file and lines the page's link names open in it (a shared link's screen).
 */
export function HostedForm({ keepPlace = false }: { keepPlace?: boolean }) {
  const [url, setUrl] = useState('');
  return (
    <form
      class="hosted-form"
      onSubmit={(e) => {
        e.preventDefault();
        const u = url.trim();
        if (!u) return;
        overlay.value = 'none';
        void go(`${location.pathname}?index=${encodeURIComponent(u)}${keepPlace ? location.hash : ''}`);
      }}
    >
      <label for="hosted-url">…or a published index (<code>hci pack</code>) by its URL:</label>
      <input id="hosted-url" type="url" placeholder="https://example.org/hci/index.sqlite" value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled={!url.trim()}>Open</button>
    </form>
  );
}

/** Where the user was last in each stored workspace (newest first): one click goes back there. */
function Resume() {
  const stored = new Set(workspaces.value.map((w) => w.workspace));
  // A hosted index's place holds its URL (?index=): it opens from anywhere.
  const places = lastPlaces().filter((p) => stored.has(p.workspace) || new URL(p.url, location.href).searchParams.has('index')).slice(0, 3);
  if (!places.length) return null;
  return (
    <section class="resume" aria-label="Continue where you were">
      <h2>Continue where you were</h2>
      <ul>
        {places.map((p) => {
          const u = new URL(p.url, location.href);
          const r = parseRoute({ search: u.search, hash: u.hash });
          return (
            <li>
              <a
                href={p.url}
                onClick={(e) => {
                  e.preventDefault();
                  overlay.value = 'none';
                  void go(p.url);
                }}
              >
                <b>{p.workspace}</b>
                {r.path && <code> {r.path}{r.lines ? `#L${r.lines[0]}` : ''}</code>}
                {r.q && <span class="muted"> “{r.q}”</span>}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** A hidden one-file input, clicked by a button; cleared after each pick so the same file can be picked again. */
function FilePicker(p: { inputRef: Ref<HTMLInputElement>; id: string; accept: string; onFile: (f: File) => void }) {
  return (
    <input
      ref={p.inputRef}
      id={p.id}
      type="file"
      hidden
      accept={p.accept}
      onChange={(e) => {
        const input = e.target as HTMLInputElement;
        const f = input.files?.[0];
        if (f) p.onFile(f);
        input.value = '';
      }}
    />
  );
}

export function Home() {
  const folder = useRef<HTMLInputElement>(null);
  const zip = useRef<HTMLInputElement>(null);
  const sqlite = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const st = storageInfo.value;
  const done = () => (overlay.value = 'none');
  const pickAgain = () => {
    notice.value = { kind: 'info', text: 'choose the folder or .zip again to re-index it (an unchanged file is not read twice)' };
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = [...(e.dataTransfer?.files ?? [])][0];
    if (!file) return;
    if (isZip(file)) void openPicked(fromZip(file)).then(done);
    else if (/\.(sqlite3?|db)$/i.test(file.name)) void importIndexFile(file).then(done);
    else notice.value = { kind: 'error', text: `${file.name} is not a .zip`, hint: 'drop a .zip (a GitHub archive works), or use Open folder' };
  };
  return (
    <main
      class={`home${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h1 class="sr-only">Workspaces</h1>
      <Resume />
      <section class="open">
        <h2>Open a workspace</h2>
        <p class="muted">Your code is indexed in this browser (OPFS) and never leaves it. C#, Razor, AXAML, configs, docs and web files.</p>
        <div class="sources">
          {canPickDirectory && (
            <button class="primary" onClick={() => void pickDirectory().then(openPicked).then(done).catch((e) => (notice.value = toNotice(e)))}>
              Open folder…
            </button>
          )}
          <button onClick={() => folder.current?.click()}>Upload folder…</button>
          <button onClick={() => zip.current?.click()}>Open .zip…</button>
          <button onClick={() => sqlite.current?.click()}>Import index…</button>
        </div>
        <p class="muted drop">…or drop a .zip here (a GitHub “Download ZIP” archive works).</p>
        <HostedForm />
        <input
          ref={folder}
          id="folder-input"
          type="file"
          hidden
          {...({ webkitdirectory: true } as object)}
          multiple
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            if (input.files) void openPicked(fromFolderUpload(input.files)).then(done);
            input.value = '';
          }}
        />
        <FilePicker inputRef={zip} id="zip-input" accept=".zip,application/zip" onFile={(f) => void openPicked(fromZip(f)).then(done)} />
        <FilePicker inputRef={sqlite} id="import-input" accept=".sqlite,.sqlite3,.db" onFile={(f) => void importIndexFile(f).then(done)} />
      </section>

      <section class="stored">
        <h2>Stored workspaces</h2>
        <p class="muted storage">
          Storage: {bytes(st.usage)} used of {bytes(st.quota)} ·{' '}
          {st.persisted ? 'persistent (kept under storage pressure)' : (
            <>
              best effort{' '}
              <button class="link" onClick={() => void navigator.storage?.persist?.().then(refreshWorkspaces)}>
                ask to keep it
              </button>
            </>
          )}
        </p>
        {workspaces.value.length === 0 ? (
          <p class="muted">None yet.</p>
        ) : (
          <div class="ws-scroll">
          <table class="ws-table">
            <thead>
              <tr>
                <th>workspace</th>
                <th>files</th>
                <th>chunks</th>
                <th>on disk</th>
                <th>indexed</th>
                <th>source</th>
                <th><span class="sr-only">actions</span></th>
              </tr>
            </thead>
            <tbody>
              {workspaces.value.map((w) => (
                <tr key={w.key} data-workspace={w.workspace}>
                  <td>
                    <button class="link ws-name" onClick={() => void openWorkspace(w.workspace).then((ws) => ws && done())}>
                      {w.workspace}
                    </button>
                    {w.open_here && <span class="badge ok">open</span>}
                    {w.open_elsewhere && <span class="badge warn">open in another tab</span>}
                  </td>
                  <td>{w.summary ? count(w.summary.files, 'file') : '–'}</td>
                  <td>{w.summary ? w.summary.chunks.toLocaleString('en') : '–'}</td>
                  <td>{bytes(w.summary?.index_bytes)}</td>
                  <td>{age(w.summary?.indexed_at)}</td>
                  <td class="muted">{w.summary?.source ? (w.summary.source.kind === 'import' ? 'imported index' : `${w.summary.source.kind}: ${w.summary.source.label}`) : '–'}</td>
                  <td class="row-actions">
                    <button onClick={() => void reindex(w.workspace, pickAgain).then(done)}>Re-index</button>
                    <button onClick={() => void exportWorkspace(w.workspace)}>Export</button>
                    <button
                      class="danger"
                      onClick={() => {
                        if (confirm(`Delete the index of ${w.workspace} from this browser?`)) void removeWorkspace(w.workspace);
                      }}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        )}
        {current.value && (
          <p>
            <button class="link" onClick={done}>← back to {current.value.name}</button>
          </p>
        )}
      </section>
    </main>
  );
}
