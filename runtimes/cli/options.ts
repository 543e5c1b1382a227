// Option values of the command table: parsers that turn a bad value into a usage error (exit 2), and
// the options several commands share. Owns only these.
import { InvalidArgumentError, Option } from 'commander';

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

export function oneOf<T extends string>(values: readonly T[]): (v: string) => T {
  return (v) => {
    if (!values.includes(v as T)) throw new InvalidArgumentError(`expected ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);
    return v as T;
  };
}

/** Repeatable and comma-separated: `-e cs -e razor,css`. */
export const collect = (v: string, prev: string[]) => [...prev, ...v.split(',').filter(Boolean)];

export const rootOption = () => new Option('-r, --root <dir>', 'workspace folder (default: nearest indexed folder above the current one)');
export const jsonOption = (what = 'print as JSON') => new Option('--json', what);
