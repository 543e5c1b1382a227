// The arguments and options of the command table, typed: each names its commander syntax and help,
// and reads what commander parsed into a value of its own type (a bad value is a usage error, exit
// 2, before any verb runs), so a row's code gets typed values and casts nothing. Also the options
// several commands share. Owns only these; turning rows into commander commands is program.ts.
import { InvalidArgumentError, Option } from 'commander';
import { indexUrl as parsedIndexUrl } from '../shared/index-url.ts';

export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

export function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return n;
}

/** Repeatable and comma-separated: `-e cs -e razor,css`. */
export const collect = (v: string, prev: string[]) => [...prev, ...v.split(',').filter(Boolean)];

/** One option of a row: its commander Option (made fresh for each program) and how its parsed value reads. */
export interface Opt<T> {
  make(): Option;
  read(v: unknown): T;
}

/** The values of a row's options, by the names it gives them. */
export type OptValues<O> = { [K in keyof O]: O[K] extends Opt<infer T> ? T : never };

const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNumber = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export const opt = {
  /** `--full`: true when given. */
  flag: (flags: string, help: string, tune: (o: Option) => Option = (o) => o): Opt<boolean> => ({ make: () => tune(new Option(flags, help)), read: (v) => v === true }),
  /** `--no-pending`: true unless the negation is given. */
  negated: (flags: string, help: string): Opt<boolean> => ({ make: () => new Option(flags, help), read: (v) => v !== false }),
  /** A string value (undefined when not given). */
  text: (flags: string, help: string, tune: (o: Option) => Option = (o) => o): Opt<string | undefined> => ({ make: () => tune(new Option(flags, help)), read: asString }),
  /** A string value that must be given. */
  required: (flags: string, help: string): Opt<string> => ({ make: () => new Option(flags, help).makeOptionMandatory(), read: (v) => asString(v) ?? '' }),
  /** A string value with a default. */
  textOr: (flags: string, help: string, fallback: string): Opt<string> => ({ make: () => new Option(flags, help).default(fallback), read: (v) => asString(v) ?? fallback }),
  /** A positive integer (undefined when not given). */
  int: (flags: string, help: string, tune: (o: Option) => Option = (o) => o): Opt<number | undefined> => ({ make: () => tune(new Option(flags, help).argParser(positiveInt)), read: asNumber }),
  /** A positive integer with a default. */
  intOr: (flags: string, help: string, fallback: number, parse: (v: string) => number = positiveInt): Opt<number> =>
    ({ make: () => new Option(flags, help).argParser(parse).default(fallback), read: (v) => asNumber(v) ?? fallback }),
  /** Repeatable, comma-separated (`collect`); [] when not given. */
  list: (flags: string, help: string): Opt<string[]> => ({
    make: () => new Option(flags, help).argParser(collect).default([]),
    read: (v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []),
  }),
  /** Repeatable, each value as given (no comma split: a folder's name may hold one) or as `check` returns it (it throws InvalidArgumentError to refuse one); [] when not given. */
  repeat: (flags: string, help: string, check: (v: string) => string = (v) => v): Opt<string[]> => ({
    make: () => new Option(flags, help).argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), check(v)]),
    read: (v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []),
  }),
  /** A repeatable value taken as it is (`--path a b`, variadic); undefined when not given. */
  many: (flags: string, help: string): Opt<string[] | undefined> => ({
    make: () => new Option(flags, help),
    read: (v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined),
  }),
  /** One of `values`, `fallback` when not given. */
  oneOfOr: <T extends string>(flags: string, help: string, values: readonly T[], fallback: T): Opt<T> => ({
    make: () => new Option(flags, help).argParser(oneOf(values)).default(fallback),
    read: (v) => values.find((x) => x === v) ?? fallback,
  }),
  /** One of `values`, undefined when not given. */
  oneOf: <T extends string>(flags: string, help: string, values: readonly T[], tune: (o: Option) => Option = (o) => o): Opt<T | undefined> => ({
    make: () => tune(new Option(flags, help).argParser(oneOf(values))),
    read: (v) => values.find((x) => x === v),
  }),
};

export function oneOf<T extends string>(values: readonly T[]): (v: string) => T {
  return (v) => {
    const found = values.find((x) => x === v);
    if (found === undefined) throw new InvalidArgumentError(`expected ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);
    return found;
  };
}

/** A positional argument of a row: its commander syntax (`<file>`, `[root]`, `<query...>`), help, and how its value reads. */
export interface Arg<T> {
  syntax: string;
  help: string;
  read(v: unknown): T;
}

/** The values of a row's positional arguments, in order. */
export type ArgValues<A> = { [K in keyof A]: A[K] extends Arg<infer T> ? T : never };

export const arg = {
  /** `<name>`: one value, required (commander refuses the command without it). */
  one: (syntax: string, help: string): Arg<string> => ({ syntax, help, read: (v) => asString(v) ?? '' }),
  /** `[name]`: one value or none. */
  maybe: (syntax: string, help: string): Arg<string | undefined> => ({ syntax, help, read: asString }),
  /** `<name...>`: one or more values. */
  words: (syntax: string, help: string): Arg<string[]> => ({ syntax, help, read: (v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []) }),
};

export const rootOption = () => opt.text('-r, --root <dir>', 'workspace folder (default: nearest indexed folder above the current one)');
/** Whether a root names a published index (hci pack) by its http(s) URL rather than a folder: the runtimes' own test (index-url.ts), so the CLI and openWorkspace agree. */
export const isIndexUrl = (root: string): boolean => parsedIndexUrl(root) !== null;

/** --index's value: a published index's URL (hci pack); a folder goes to --root. */
export function indexUrl(v: string): string {
  if (!isIndexUrl(v)) throw new InvalidArgumentError('expected the http(s) URL of a packed index (e.g. https://example.org/hci/index.sqlite); a folder goes to --root');
  return v;
}

export const indexOption = () =>
  opt.text('--index <url>', 'a published index (hci pack) read over HTTP range requests, instead of a workspace folder', (x) => x.argParser(indexUrl).conflicts('root'));
export const jsonOption = (what = 'print as JSON') => opt.flag('--json', what);
