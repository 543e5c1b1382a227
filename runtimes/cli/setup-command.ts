// `hci setup <host> [root]`, a row of the command table: sets an agent host up to use this hci — its MCP
// configuration pointing at this hci by absolute path (a clone or an install, published or not) and
// the instructions its agent reads on when and how to call hci; --print shows the files instead,
// --remove takes it out again. Owns the command's arguments and output; the hosts are setup/hosts.ts,
// the run setup/run.ts (loaded when the command runs), files the runtime's SetupIo.
import { HciError } from '../../core/platform.ts';
import { EXIT } from '../../core/contract/errors.ts';
import { command, fail, printJson, type CommandRow } from './command.ts';
import { arg, jsonOption, opt } from './options.ts';
import { HOSTS, HOST_NAMES } from './setup/hosts.ts';
import type { SetupReport } from './setup/run.ts';

function formatReport(r: SetupReport, remove: boolean): string {
  const out: string[] = [];
  if (r.config !== undefined) {
    out.push(`# MCP configuration (most hosts: an entry under "mcpServers")`, r.config.trimEnd(), '', '# instructions for the agent file (AGENTS.md, CLAUDE.md, rules)', r.instructions?.trimEnd() ?? '');
    return out.join('\n');
  }
  for (const f of r.files) {
    if (f.text !== undefined) out.push(`# ${f.path} (${f.action})`, f.text.trimEnd(), '');
    else out.push(`${f.action.padEnd(9)}  ${f.path}${f.kept_for ? ` (hci setup ${f.kept_for.join(', ')} still uses it)` : ''}`);
  }
  if (!remove && !r.files.some((f) => f.text !== undefined)) {
    out.push(`${r.label}: MCP server "${r.server.name}" runs ${[r.server.command, ...r.server.args].join(' ')}`);
    if (r.note) out.push(`note: ${r.note}`);
  }
  return out.join('\n');
}

export const setupCommand: CommandRow = command({
  name: 'setup',
  description: 'set an agent host up to use hci: its MCP configuration (this hci, by absolute path) and when-to-call-hci instructions for its agent',
  args: [
    arg.one('<host>', `${HOST_NAMES.join(' | ')} (generic: print the JSON most hosts take)`),
    arg.maybe('[root]', 'workspace folder (default: the current folder)'),
  ],
  options: {
    print: opt.flag('--print', 'show what would be written; write nothing'),
    remove: opt.flag('--remove', 'take hci out again (files hci made are deleted, files it changed restored)'),
    instructions: opt.negated('--no-instructions', 'only the MCP configuration, no instructions for the agent'),
    name: opt.textOr('--name <name>', 'the server\'s name in the host\'s configuration', 'hci'),
    json: jsonOption('print what was done as JSON'),
  },
  needs: 'setup',
  helpAfter: `\nHosts and the files written:\n${HOSTS.map((h) => `  ${h.name.padEnd(9)} ${h.label}`).join('\n')}\nSee docs/cli.md#hci-setup for each host's files.\n\nExamples:\n  hci setup claude            # .mcp.json and CLAUDE.md in the current folder\n  hci setup cursor ~/src/shop --print\n  hci setup vscode --remove`,
  async run(c, [hostName, rootArg], o) {
    try {
      const io = c.rt.setup!;
      if (!HOST_NAMES.includes(hostName)) throw new HciError('usage', `unknown host: ${hostName}`, `one of ${HOST_NAMES.join(', ')}`);
      if (!/^[A-Za-z0-9_.-]+$/.test(o.name)) throw new HciError('usage', `--name ${o.name}: use letters, digits, ".", "_" or "-"`, 'e.g. --name hci-shop');
      const root = c.rt.resolve(rootArg ?? '.');
      if (!c.rt.isDirectory(root)) throw new HciError('root_not_found', `workspace folder not found: ${root}`, 'pass an existing folder: hci setup <host> /path/to/repo');
      const { runSetup } = await import('./setup/run.ts');
      const r = runSetup(io, hostName, { root, name: o.name, print: o.print, remove: o.remove, instructions: o.instructions });
      if (o.json) printJson(c, r);
      else c.rt.write('out', `${formatReport(r, o.remove)}\n`);
      return EXIT.ok;
    } catch (e) {
      return fail(c, e, o.json);
    }
  },
});
