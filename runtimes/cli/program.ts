// Turns the command table (commands.ts) into a commander program and runs it, for any runtime: a
// verb's own argument rewrite first, usage errors become exit code 2 (with --json, the failure JSON on
// stdout instead of commander's text), help exits 0, and commander's output goes through the runtime's
// writers (so it needs no process, env or terminal API of its own — it runs unchanged under Deno). Owns
// that wiring only.
import { Command, CommanderError } from 'commander';
import { EXIT } from '../../core/contract/errors.ts';
import { HCI_VERSION } from '../../core/version.ts';
import { COMMANDS } from './commands.ts';
import { createStyle } from './format.ts';
import { fail, failureOf, type CommandContext, type CommandRow } from './command.ts';
import type { CliRuntime } from './runtime.ts';

const EXIT_HELP = '\nExit codes: 0 ok · 1 no hits · 2 bad usage/input · 3 no index · 4 index busy · 5 other failure · 130 cancelled';

export function buildProgram(rt: CliRuntime, setExit: (code: number) => void, opts: { json?: boolean; usageError?: (message: string) => void } = {}): Command {
  const c: CommandContext = { rt, style: createStyle(rt.color) };
  const program = new Command('hci')
    .description('hci — the hybrid codebase index: find where to look in a code base in one or two calls')
    .configureOutput({
      writeOut: (s) => rt.write('out', s),
      writeErr: (s) => rt.write('err', s),
      // With --json a usage error is the failure JSON on stdout (runCli), not commander's text.
      // One error prefix for every failure (`hci: …`, then a `hint:` line: runCli).
      outputError: (s, write) => (opts.json ? opts.usageError?.(s) : write(s.replace(/^error: /, 'hci: '))),
      // undefined (not a terminal): commander's default width
      getOutHelpWidth: () => rt.columns('out') as number,
      getErrHelpWidth: () => rt.columns('err') as number,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .version(HCI_VERSION, '-V, --version', 'print the version of hci')
    .exitOverride() // before the subcommands, which inherit it: usage errors become exit code 2
    .addHelpText('after', EXIT_HELP);

  const add = (parent: Command, row: CommandRow) => {
    if (row.needs && !rt[row.needs]) return;
    const cmd = parent.command(row.name).description(row.description);
    if (row.aliases?.length) cmd.aliases(row.aliases);
    for (const [syntax, help] of row.args) cmd.argument(syntax, help);
    for (const opt of row.options()) cmd.addOption(opt);
    if (row.helpAfter) cmd.addHelpText('after', row.helpAfter);
    for (const sub of row.subcommands ?? []) add(cmd, sub);
    const run = row.run;
    if (!run) return; // a group: commander shows its help (exit 2 when no subcommand was given)
    cmd.action(async (...params: unknown[]) => {
      // commander passes the positional arguments, then the options, then the command; the row reads them typed (options.ts).
      const args = params.slice(0, row.args.length);
      const opts: Record<string, unknown> = cmd.opts();
      // A verb that throws (a path the system refuses before the service sees it) answers as any failure.
      setExit(await run(c, args, opts).catch((e: unknown) => fail(c, e, opts.json === true)));
    });
  };
  for (const row of COMMANDS) add(program, row);
  return program;
}

/** The row a command line's first argument names, by its name or an alias. */
const rowNamed = (name: string | undefined) => COMMANDS.find((r) => r.name === name || r.aliases?.includes(name ?? ''));

/** The arguments with the verb's own rewrite applied (the first argument names the verb). */
function rewritten(argv: string[]): string[] {
  const row = rowNamed(argv[0]);
  return row?.rewriteArgs ? [argv[0], ...row.rewriteArgs(argv.slice(1))] : argv;
}

/** commander's codes for help it printed itself (a group run without its subcommand): no hint after it. */
const HELP_SHOWN = new Set(['commander.help', 'commander.helpDisplayed', 'commander.version']);

/**
 * The hint after a usage error: an unknown option given to a verb that takes a query is most likely
 * a query that starts with `-` (a CSS variable, a flag name): it goes after `--`.
 */
function usageHint(verb: string | undefined, e: CommanderError): string {
  const flag = /unknown option '([^']+)'/.exec(e.message)?.[1];
  if (flag && (verb === 'search' || verb === 'similar')) {
    return `a query that starts with "-" goes after "--": hci ${verb} [options] -- ${flag}; else run \`hci ${verb} --help\` for the options`;
  }
  return `run \`hci ${verb ? `${verb} ` : ''}--help\` for usage`;
}

/** Runs `hci <argv>` and returns the exit code. */
export async function runCli(argv: string[], rt: CliRuntime): Promise<number> {
  let code = 0;
  const end = argv.indexOf('--');
  const json = (end < 0 ? argv : argv.slice(0, end)).includes('--json');
  let usage = '';
  const program = buildProgram(rt, (c) => {
    code = c;
  }, { json, usageError: (m) => (usage += m) });
  try {
    await program.parseAsync(rewritten(argv), { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.exitCode === 0) return 0;
    const verb = rowNamed(argv[0])?.name;
    const hint = usageHint(verb, e);
    if (json) {
      rt.write('out', `${JSON.stringify(failureOf('usage', (usage || e.message).trim().replace(/^error: /, ''), hint), null, 2)}\n`);
    } else if (!HELP_SHOWN.has(e.code)) rt.write('err', `hint: ${hint}\n`);
    return EXIT.usage;
  }
  return code;
}
