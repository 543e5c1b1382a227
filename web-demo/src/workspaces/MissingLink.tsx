// What a shared link shows in a browser that does not hold its workspace (a browser-local index lives
// in the storage of the browser that built it and never leaves it): in plain words, what the link
// points to and what can be done here — open the same folder or a .zip of it, or import an index
// file of it, under the link's workspace name, after which the link opens the file and lines it
// names; or the URL of a published index of it (the link, with ?index=, then opens it here and
// anywhere); or go to this browser's own workspaces. Owns this screen; the flows are actions.ts's.
import { useRef } from 'preact/hooks';
import { missingLink, applyRoute } from '../app/navigate.ts';
import { overlay } from '../app/state.ts';
import { canPickDirectory, fromFolderUpload, fromZip, pickDirectory, type PickedSource } from './sources.ts';
import { importIndexFile, openWorkspace, whenIndexed } from './actions.ts';
import { HostedForm } from './Home.tsx';

export function MissingLink() {
  const r = missingLink.value;
  const folder = useRef<HTMLInputElement>(null);
  const zip = useRef<HTMLInputElement>(null);
  const sqlite = useRef<HTMLInputElement>(null);
  if (!r?.workspace) return null;
  const name = r.workspace;
  // Whatever is picked is indexed (or imported) as the link's workspace; then the link is followed.
  const follow = async (p: PickedSource | null) => {
    if (!p) return;
    if (!(await openWorkspace(name, p.source))) return;
    await whenIndexed(name);
    await applyRoute();
  };
  return (
    <div class="missing-link" role="main">
      <h1 class="sr-only">Link to a workspace not in this browser</h1>
      <section>
        <h2>{name} is not in this browser</h2>
        <p>
          This link points to <b>{name}</b>{r.path && <> — <code>{r.path}</code>{r.lines && ` lines ${r.lines[0]}–${r.lines[1]}`}</>}
          {r.q && <> with the search <code>{r.q}</code></>}. That workspace was indexed in another browser, and its index stays in
          that browser's storage: nothing was uploaded anywhere, so it cannot be opened from here.
        </p>
        <p>To follow the link in this browser, give it the same code. It is indexed here as <b>{name}</b> and the link then opens what it names:</p>
        <div class="sources">
          {canPickDirectory && (
            <button class="primary" onClick={() => void pickDirectory().then(follow)}>
              Open the folder…
            </button>
          )}
          <button onClick={() => folder.current?.click()}>Upload the folder…</button>
          <button onClick={() => zip.current?.click()}>Open a .zip of it…</button>
          <button onClick={() => sqlite.current?.click()}>Import its index file…</button>
        </div>
        <p class="muted">
          An index file is what Export saves in the other browser, or <code>.hci/index.sqlite</code> after <code>hci index</code> on the command line.
          A hosted index (a link with <code>?index=</code>) opens in any browser.
        </p>
        <HostedForm keepPlace />
        <p>
          <button class="link" onClick={() => ((missingLink.value = null), history.replaceState(null, '', location.pathname), (overlay.value = 'workspaces'))}>
            Go to the workspaces in this browser
          </button>
        </p>
        <input
          ref={folder}
          type="file"
          hidden
          aria-label="Folder"
          {...({ webkitdirectory: true } as object)}
          multiple
          onChange={(e) => {
            const input = e.target as HTMLInputElement;
            if (input.files) void follow(fromFolderUpload(input.files));
            input.value = '';
          }}
        />
        <input ref={zip} id="missing-zip-input" type="file" hidden aria-label="Zip" accept=".zip,application/zip" onChange={(e) => {
          const input = e.target as HTMLInputElement;
          const f = input.files?.[0];
          if (f) void follow(fromZip(f));
          input.value = '';
        }} />
        <input ref={sqlite} id="missing-import-input" type="file" hidden aria-label="Index file" accept=".sqlite,.sqlite3,.db" onChange={(e) => {
          const input = e.target as HTMLInputElement;
          const f = input.files?.[0];
          if (f) void importIndexFile(f, name).then(() => applyRoute());
          input.value = '';
        }} />
      </section>
    </div>
  );
}
