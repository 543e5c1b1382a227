// `hci intercom find|relate`, a group row of the command table: which messages of a conversation's
// thread relate to a code ref, and recording that a range of them does (one message_range_related
// line appended to the log, `source: "cli"`): the presentation of the verbs intercomFind and
// intercomRelate (core/service/verbs.ts). Owns their arguments and options and how a command line
// names things: the log relative to the current folder, a code ref's file relative to the current
// folder when it is one there (else to the workspace root, as the contract says). The answers are
// the verbs', the layout format.ts.
import { rootFor, verbCommand, withEmpty, type CommandContext, type CommandRow } from './command.ts';
import { arg, jsonOption, opt, rootOption } from './options.ts';
import { formatIntercomFind, formatIntercomRelate } from './format.ts';

const REF_HELP = 'src/Foo.cs:L10-20 · src/Foo.cs (whole file) · L:10-20 with --file · "[M:<member key>]" · anchor:<id>';

/**
 * A path as the command line means it: relative to the current folder when it names a file there
 * (then workspace-relative when inside `root`, else absolute: the core refuses it), else as typed
 * (workspace-relative, the contract's reading).
 */
function cliPath(c: CommandContext, root: string, p: string): string {
  const abs = c.rt.resolve(p);
  if (!c.rt.isFile(abs)) return p;
  const inside = abs.length > root.length && abs.startsWith(root) && /[\\/]/.test(abs[root.length]);
  return inside ? abs.slice(root.length + 1).replace(/\\/g, '/') : abs;
}

/** The code ref with its file part read as cliPath does; member keys, anchors, L:… and selection as typed. */
function cliCodeRef(c: CommandContext, root: string, ref: string | undefined): string | undefined {
  if (!ref || /^(\[M:|anchor:|L:|selection$)/.test(ref.trim())) return ref;
  const m = /^(.+?)((?::L|#L)\d[\s\S]*)?$/.exec(ref.trim());
  return m ? cliPath(c, root, m[1]) + (m[2] ?? '') : ref;
}

/** The options every intercom verb shares. */
const shared = () => ({
  log: opt.required('--log <events.ndjson>', "the conversation's NDJSON event log (relative to the current folder)"),
  thread: opt.required('--thread <id>', 'the thread (conversation branch) in the log'),
  file: opt.text('--file <file>', 'the file a bare L:10-20 refers to (the open file)'),
  root: rootOption(),
});

/** The request fields every intercom verb shares, read from the command line. */
function requestFields(c: CommandContext, root: string, ref: string | undefined, o: { log: string; thread: string; file: string | undefined }) {
  return {
    log: c.rt.resolve(o.log),
    thread_id: o.thread,
    code_ref: cliCodeRef(c, root, ref),
    ...(o.file !== undefined ? { file: cliPath(c, root, o.file) } : {}),
  };
}

const find = verbCommand({
  verb: 'intercomFind',
  name: 'find',
  description: 'which messages of a thread relate to this code (best first; exit 1 when none)',
  args: [arg.maybe('[code-ref]', `the code: ${REF_HELP}`)],
  options: { ...shared(), limit: opt.int('-k, --limit <n>', 'most matches to show (default 100)'), json: jsonOption('print the find contract as JSON') },
  helpAfter: '\nExamples:\n  hci intercom find src/Foo.cs:L10-20 --log .sessions/abc.events.ndjson --thread t1\n  hci intercom find "[M:Demo.Shop.Foo.Add(int)]" --log events.ndjson --thread t1 --json',
  ask: (c, [ref], o) => {
    const root = rootFor(c, o.root);
    return { root, req: { ...requestFields(c, root, ref, o), ...(o.limit ? { limit: o.limit } : {}) } };
  },
  format: formatIntercomFind,
  exit: withEmpty((r) => r.matches.length),
});

const relate = verbCommand({
  verb: 'intercomRelate',
  name: 'relate',
  description: 'record that a contiguous range of committed messages relates to this code (appends one line to the log)',
  args: [
    arg.one('<range>', 'the messages: n, "n m" or n:m (1-based ordinals, contiguous)'),
    arg.maybe('[code-ref]', `the code: ${REF_HELP}`),
  ],
  options: { ...shared(), json: jsonOption('print the relate contract as JSON') },
  helpAfter: '\nExample:\n  hci intercom relate 3:5 src/Foo.cs:L12-15 --log .sessions/abc.events.ndjson --thread t1',
  ask: (c, [range, ref], o) => {
    const root = rootFor(c, o.root);
    return { root, req: { ...requestFields(c, root, ref, o), range } };
  },
  format: formatIntercomRelate,
});

export const intercomCommand: CommandRow = {
  name: 'intercom',
  description: 'message ↔ code traceability over a conversation\'s NDJSON event log: find, relate',
  args: [],
  options: () => [],
  subcommands: [find, relate],
};
