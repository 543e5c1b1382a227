// The host table of `hci setup`: one row per agent host — where its MCP configuration lives and in
// which shape (a JSON object under a key, or a TOML table), the entry that starts this hci's MCP server,
// and the file its agent reads for instructions (a block in a shared file, or a file of its own). Each
// row's locations and shapes were checked against the host's own documentation (docs/cli.md cites
// them). A new host is one row. Owns the rows and the instructions' wording; editing the files is
// edits.ts, the command setup-command.ts.

/** How this hci's MCP server is started: an absolute command and its arguments (a clone or an install). */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** Where the files go: the workspace (project-level files) and the user's home (user-level files). */
export interface SetupPlace {
  root: string;
  home: string;
  join(...parts: string[]): string;
}

export type ConfigShape =
  /** A JSON (or JSONC) file whose object under `key` maps server names to entries. */
  | { kind: 'json'; key: string; entry(cmd: ServerCommand): Record<string, unknown> }
  /** A TOML file with a `[<table>.<name>]` table per server. */
  | { kind: 'toml'; table: string };

export interface InstructionsFile {
  /** The file the host's agent reads. */
  path(p: SetupPlace): string;
  /** `block`: a marked block in a file others write too (AGENTS.md); `own`: a file of hci's alone (a rules file). */
  mode: 'block' | 'own';
  /** The file's text around the instructions (an own file's front matter). */
  wrap?(text: string): string;
}

export interface HostRow {
  name: string;
  label: string;
  /** The MCP configuration file; null: the host has none hci writes (generic: printed only). */
  config: { path(p: SetupPlace): string; shape: ConfigShape; scope: 'project' | 'user' } | null;
  instructions: InstructionsFile | null;
  /** Said after the files are written: what the user still does in the host. */
  note?: string;
}

const stdioEntry = (cmd: ServerCommand) => ({ command: cmd.command, args: cmd.args });

/** What an agent is told: when to call hci (before grep, ls, reading files) and how (one or two calls, then read the lines). */
export const INSTRUCTIONS = `## Finding code: use hci first

This repository is indexed by hci, the hybrid codebase index (MCP server \`hci\`). To find where
something is, call hci before grep, ls, find or opening files to look around:

- "Where is …", "what uses …", "which view, page, config or test …": the \`search\` tool with the words
  or identifiers you would grep for (\`GetCatalogItemsAsync\`, \`where is the discount applied\`,
  \`OrderService path:src/Web ext:razor\`). It answers ranked \`path:line\` ranges with a snippet.
- A symbol's definitions: \`resolve\` with \`name\`; the members of a file: \`outline\`.
- Exact text or a regex: \`search\` with \`mode\` \`literal\` or \`regex\` (every matching line, like grep).

One or two calls, then read only the lines they point to. Fall back to grep only when hci answers
\`no_index\` or nothing relevant.
`;

export const HOSTS: HostRow[] = [
  {
    name: 'claude',
    label: 'Claude Code',
    // Project scope: .mcp.json at the project root, servers under mcpServers (what `claude mcp add --scope project` writes).
    config: { path: (p) => p.join(p.root, '.mcp.json'), shape: { kind: 'json', key: 'mcpServers', entry: (cmd) => ({ type: 'stdio', ...stdioEntry(cmd) }) }, scope: 'project' },
    instructions: { path: (p) => p.join(p.root, 'CLAUDE.md'), mode: 'block' },
    note: 'Claude Code asks once to approve the project\'s .mcp.json servers; `/mcp` lists them',
  },
  {
    name: 'cursor',
    label: 'Cursor',
    // .cursor/mcp.json in the project (~/.cursor/mcp.json for every project), servers under mcpServers.
    config: { path: (p) => p.join(p.root, '.cursor', 'mcp.json'), shape: { kind: 'json', key: 'mcpServers', entry: stdioEntry }, scope: 'project' },
    // A project rule: .cursor/rules/*.mdc, front matter then Markdown; alwaysApply puts it in every request.
    instructions: {
      path: (p) => p.join(p.root, '.cursor', 'rules', 'hci.mdc'),
      mode: 'own',
      wrap: (text) => `---\ndescription: Find code with the hci MCP server before grep or reading files\nalwaysApply: true\n---\n${text}`,
    },
    note: 'Cursor lists the server under Settings → MCP; switch it on there if it is off',
  },
  {
    name: 'vscode',
    label: 'VS Code (Copilot)',
    // .vscode/mcp.json in the workspace, servers under `servers`, a stdio one with type "stdio".
    config: { path: (p) => p.join(p.root, '.vscode', 'mcp.json'), shape: { kind: 'json', key: 'servers', entry: (cmd) => ({ type: 'stdio', ...stdioEntry(cmd) }) }, scope: 'project' },
    instructions: { path: (p) => p.join(p.root, '.github', 'copilot-instructions.md'), mode: 'block' },
    note: 'VS Code asks to trust and start the server the first time the agent lists tools',
  },
  {
    name: 'codex',
    label: 'Codex',
    // .codex/config.toml of the project ([mcp_servers.<name>] with command and args); Codex reads it in a trusted project.
    config: { path: (p) => p.join(p.root, '.codex', 'config.toml'), shape: { kind: 'toml', table: 'mcp_servers' }, scope: 'project' },
    instructions: { path: (p) => p.join(p.root, 'AGENTS.md'), mode: 'block' },
    note: 'Codex reads a project\'s .codex/config.toml only when the project is trusted; `/mcp` lists the servers',
  },
  {
    name: 'windsurf',
    label: 'Windsurf',
    // One user-level file, ~/.codeium/windsurf/mcp_config.json, servers under mcpServers.
    config: { path: (p) => p.join(p.home, '.codeium', 'windsurf', 'mcp_config.json'), shape: { kind: 'json', key: 'mcpServers', entry: stdioEntry }, scope: 'user' },
    instructions: { path: (p) => p.join(p.root, 'AGENTS.md'), mode: 'block' },
    note: 'Windsurf\'s configuration is per user: the server serves this workspace in every project (pass --name to keep one per workspace)',
  },
  {
    name: 'generic',
    label: 'any MCP host (the mcpServers JSON most hosts take)',
    config: null,
    instructions: null,
  },
];

export const HOST_NAMES = HOSTS.map((h) => h.name);

/** The JSON most hosts take for one stdio server, as `generic` prints it. */
export function genericConfig(name: string, cmd: ServerCommand): string {
  return `${JSON.stringify({ mcpServers: { [name]: stdioEntry(cmd) } }, null, 2)}\n`;
}
