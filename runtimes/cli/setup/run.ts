// One `hci setup` run: for a host of the table (hosts.ts), the new text of each of its files — the MCP
// configuration with this hci's server, the agent file with the instructions — then writes them (or,
// with print, only shows them; with remove, takes hci's part out again). What a run changed is
// recorded in <root>/.hci/setup.json: `remove` gives a file that nobody edited since back byte for
// byte (or deletes the file hci made), and takes only hci's part out of one that was edited; a file
// two hosts use (AGENTS.md: Codex and Windsurf) is left as it is until the last of them is removed. Owns
// the run; the edits are edits.ts, files and paths the runtime's SetupIo.
import type { SetupIo } from '../runtime.ts';
import { HOSTS, INSTRUCTIONS, genericConfig, type HostRow, type ServerCommand, type SetupPlace } from './hosts.ts';
import { dropBlock, dropJson, dropToml, putBlock, putJson, putToml, readState, writeState, type SetupState } from './edits.ts';

export interface SetupOptions {
  root: string;
  name: string;
  print: boolean;
  remove: boolean;
  instructions: boolean;
}

export type FileAction = 'written' | 'unchanged' | 'restored' | 'removed' | 'absent' | 'kept' | 'would write' | 'would remove';

export interface SetupReport {
  status: 'ok';
  host: string;
  label: string;
  server: { name: string } & ServerCommand;
  /** kept_for: a removal left the file as it is, for these hosts' setups still use it (AGENTS.md: Codex and Windsurf). */
  files: Array<{ path: string; role: 'config' | 'instructions'; action: FileAction; text?: string; kept_for?: string[] }>;
  /** generic: the JSON to paste into a host's configuration. */
  config?: string;
  instructions?: string;
  note?: string;
}

/** One file a host has: where it is and how hci's part is put in and taken out. */
interface FilePlan {
  path: string;
  role: 'config' | 'instructions';
  put(text: string): string;
  drop(text: string): string;
  /** Where emptied folders stop being removed (the workspace or the home). */
  stopAt: string;
}

function plans(host: HostRow, place: SetupPlace, server: ServerCommand, o: SetupOptions): FilePlan[] {
  const out: FilePlan[] = [];
  const cfg = host.config;
  if (cfg) {
    const path = cfg.path(place);
    const stopAt = cfg.scope === 'user' ? place.home : place.root;
    const shape = cfg.shape;
    if (shape.kind === 'json') out.push({ path, role: 'config', stopAt, put: (t) => putJson(t, shape.key, o.name, shape.entry(server), path), drop: (t) => dropJson(t, shape.key, o.name, path) });
    else out.push({ path, role: 'config', stopAt, put: (t) => putToml(t, shape.table, o.name, server, path), drop: dropToml });
  }
  const ins = host.instructions;
  if (ins && o.instructions) {
    const path = ins.path(place);
    if (ins.mode === 'own') out.push({ path, role: 'instructions', stopAt: place.root, put: () => (ins.wrap ? ins.wrap(INSTRUCTIONS) : INSTRUCTIONS), drop: () => '' });
    else out.push({ path, role: 'instructions', stopAt: place.root, put: (t) => putBlock(t, INSTRUCTIONS, 'md'), drop: (t) => dropBlock(t, 'md') });
  }
  return out;
}

export function runSetup(io: SetupIo, hostName: string, o: SetupOptions): SetupReport {
  const host = HOSTS.find((h) => h.name === hostName)!;
  const self = io.hci();
  const server: ServerCommand = { command: self.command, args: [...self.args, 'mcp', o.root] };
  const report: SetupReport = { status: 'ok', host: host.name, label: host.label, server: { name: o.name, ...server }, files: [], ...(host.note ? { note: host.note } : {}) };
  if (!host.config) return { ...report, config: genericConfig(o.name, server), instructions: INSTRUCTIONS };

  const place: SetupPlace = { root: o.root, home: io.home(), join: io.join };
  const statePath = io.join(o.root, '.hci', 'setup.json');
  const stateText = io.read(statePath);
  const state: SetupState = readState(stateText);
  for (const f of plans(host, place, server, o)) {
    const current = io.read(f.path);
    const rec = state[f.path];
    if (o.remove) {
      if (current === null) {
        report.files.push({ path: f.path, role: f.role, action: 'absent' });
        delete state[f.path];
        continue;
      }
      // Another host's setup still uses the file (the AGENTS.md block of Codex and Windsurf): it stays.
      const others = (rec?.hosts ?? []).filter((h) => h !== host.name);
      if (rec && others.length) {
        report.files.push({ path: f.path, role: f.role, action: 'kept', kept_for: others });
        if (!o.print) state[f.path] = { ...rec, hosts: others };
        continue;
      }
      // Untouched since hci wrote it: the file as it was, byte for byte; else hci's part taken out.
      const next = rec && current === rec.written ? rec.original : f.drop(current);
      const gone = next === null || (next === '' && (!rec || rec.original === null || rec.original === ''));
      const action: FileAction = next === current ? 'unchanged' : gone ? 'removed' : 'restored';
      if (o.print) report.files.push({ path: f.path, role: f.role, action: action === 'unchanged' ? 'unchanged' : 'would remove' });
      else {
        if (gone) io.remove(f.path, f.stopAt);
        else if (next !== current) io.write(f.path, next);
        report.files.push({ path: f.path, role: f.role, action });
      }
      delete state[f.path];
      continue;
    }
    const next = f.put(current ?? '');
    if (o.print) {
      report.files.push({ path: f.path, role: f.role, action: next === current ? 'unchanged' : 'would write', text: next });
      continue;
    }
    const hosts = [...new Set([...(rec?.hosts ?? []), host.name])];
    if (next === current) {
      // Already as this host needs it (another host's setup wrote the shared block): this host uses it too.
      if (rec) state[f.path] = { ...rec, hosts };
      report.files.push({ path: f.path, role: f.role, action: 'unchanged' });
      continue;
    }
    io.write(f.path, next);
    // The text before hci first touched the file stays the one a removal gives back.
    state[f.path] = { original: rec ? rec.original : current, written: next, hosts };
    report.files.push({ path: f.path, role: f.role, action: 'written' });
  }
  if (!o.print) {
    const text = writeState(state);
    if (text !== null) io.write(statePath, text);
    else if (stateText !== null) io.remove(statePath, o.root);
  }
  return report;
}
