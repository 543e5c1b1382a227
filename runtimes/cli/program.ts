// Turns the command table (commands.ts) into a commander program and runs it, for any runtime: usage
// errors become exit code 2, help exits 0, and commander's output goes through the runtime's writers
// (so it needs no process, env or terminal API of its own — it runs unchanged under Deno). Owns that
// wiring only.
import { Command, CommanderError } from 'commander';
import { EXIT } from '../../core/contract/errors.ts';
import { HCI_VERSION } from '../../core/version.ts';
import { COMMANDS } from './commands.ts';
import { createStyle } from './format.ts';
import type { CommandContext, CommandRow } from './command.ts';
import type { CliRuntime } from './runtime.ts';

const EXIT_HELP = '\nExit codes: 0 ok · 1 no hits · 2 bad usage/input · 3 no index · 4 index busy · 5 other failure · 130 cancelled';

export function buildProgram(rt: CliRuntime, setExit: (code: number) => void): Command {
  const c: CommandContext = { rt, style: createStyle(rt.color) };
  const program = new Command('hci')
    .description('hci — the hybrid codebase index: find where to look in a code base in one or two calls')
    .configureOutput({
      writeOut: (s) => rt.write('out', s),
      writeErr: (s) => rt.write('err', s),
      // undefined (not a terminal): commander's default width
      getOutHelpWidth: () => rt.columns('out') as number,
      getErrHelpWidth: () => rt.columns('err') as number,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .version(HCI_VERSION, '-V, --version', 'print the version of hci')
    .exitOverride() // before the subcommands, which inherit it: usage errors become exit code 2
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_HELP);

  const add = (parent: Command, row: CommandRow) => {
    if (row.needs && !rt[row.needs]) return;
    const cmd = parent.command(row.name).description(row.description);
    for (const [syntax, help] of row.args) cmd.argument(syntax, help);
    for (const opt of row.options()) cmd.addOption(opt);
    if (row.helpAfter) cmd.addHelpText('after', row.helpAfter);
    for (const sub of row.subcommands ?? []) add(cmd, sub);
    const run = row.run;
    if (!run) return; // a group: commander shows its help (exit 2 when no subcommand was given)
    cmd.action(async (...params: unknown[]) => {
      // commander passes the positional arguments, then the options, then the command.
      const args = params.slice(0, row.args.length) as Array<string | string[] | undefined>;
      setExit(await run(c, args, params[row.args.length] as Record<string, unknown>));
    });
  };
  for (const row of COMMANDS) add(program, row);
  return program;
}

/** Runs `hci <argv>` and returns the exit code. */
export async function runCli(argv: string[], rt: CliRuntime): Promise<number> {
  let code = 0;
  const program = buildProgram(rt, (c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT.usage;
    throw e;
  }
  return code;
}
