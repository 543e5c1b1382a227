// The event log as the core sees it: the seam a runtime implements to stat, read and append one
// NDJSON log (runtimes/node/intercom-log.ts, runtimes/deno/intercom-log.ts; an in-memory one here for
// hosts without files), and the reader that turns its bytes into events. The reader never fails on
// content: a torn last line, a line that is not JSON, an event that breaks its schema, a newer
// schema_version or an unknown type is skipped and counted. What the events mean for a thread
// belongs to projection.ts.
import { HciError } from '../platform.ts';
import { EVENT_SCHEMA_VERSION, EVENT_SCHEMAS, type EventType, type IntercomEvent } from './events.ts';

export interface LogStat {
  size: number;
  /** Whole milliseconds (runtimes differ in sub-millisecond precision). */
  mtimeMs: number;
}

/** One log file, as a runtime opens it. */
export interface IntercomLogFile {
  /** Where it is, for messages and as the sidecar's key (an absolute path on disk). */
  readonly location: string;
  /** null when there is no log there. */
  stat(): Promise<LogStat | null>;
  /** The whole log; null when there is no log there. */
  read(): Promise<Uint8Array | null>;
  /**
   * Appends one line (JSON without a newline) as one write, made durable (fdatasync) before it
   * resolves, under a cross-process lock so concurrent appenders never interleave. Starts a new line
   * first when the log ends in a torn one. Refuses (HciError `log_missing`) to create a log.
   */
  append(line: string): Promise<void>;
}

/** Opens the log a caller names; throws HciError (`invalid_log_path`, …) for a name it refuses. */
export type IntercomLogOpener = (location: string) => IntercomLogFile;

export type SkipReason = 'torn_tail' | 'malformed' | 'unsupported_version' | 'unknown_type';

export interface LogReadStats {
  /** Non-blank lines. */
  lines: number;
  /** Events accepted (every thread). */
  events: number;
  skipped: Record<SkipReason, number>;
  /** The first few skipped lines: line number and why (never their content). */
  problems: Array<{ line: number; reason: SkipReason; detail: string }>;
}

export interface LoggedEvent {
  /** 1-based line of the log. */
  line: number;
  event: IntercomEvent;
}

const MAX_PROBLEMS = 20;

export function logMissing(location: string): HciError {
  return new HciError('log_missing', `no log at ${location}`, 'pass the path of an existing events.ndjson log (hci never creates one)');
}

export function emptySkips(): Record<SkipReason, number> {
  return { torn_tail: 0, malformed: 0, unsupported_version: 0, unknown_type: 0 };
}

/** Parses a whole log. Lines are split on \n (a \r before it is dropped); blank lines are ignored. */
export function readLogEvents(bytes: Uint8Array): { events: LoggedEvent[]; stats: LogReadStats } {
  let text = new TextDecoder().decode(bytes);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n');
  const endsWhole = text.length === 0 || text.endsWith('\n');
  const stats: LogReadStats = { lines: 0, events: 0, skipped: emptySkips(), problems: [] };
  const events: LoggedEvent[] = [];
  const skip = (line: number, reason: SkipReason, detail: string) => {
    stats.skipped[reason]++;
    if (stats.problems.length < MAX_PROBLEMS) stats.problems.push({ line, reason, detail });
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (raw.trim() === '') continue;
    stats.lines++;
    const lineNo = i + 1;
    const last = i === lines.length - 1 && !endsWhole;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      // A last line without its newline that is not JSON is a write cut short (a crash mid-append).
      skip(lineNo, last ? 'torn_tail' : 'malformed', 'not a JSON value');
      continue;
    }
    const env = value as { type?: unknown; schema_version?: unknown; thread_id?: unknown };
    if (!env || typeof env !== 'object' || Array.isArray(env) || typeof env.type !== 'string' || typeof env.thread_id !== 'string' || env.thread_id === '') {
      skip(lineNo, 'malformed', 'not an event object with a string type and thread_id');
      continue;
    }
    if (!Number.isInteger(env.schema_version) || (env.schema_version as number) < 1) {
      skip(lineNo, 'malformed', 'schema_version must be a positive integer');
      continue;
    }
    if (!Object.hasOwn(EVENT_SCHEMAS, env.type)) {
      skip(lineNo, 'unknown_type', `type ${JSON.stringify(env.type).slice(0, 60)}`);
      continue;
    }
    if ((env.schema_version as number) > EVENT_SCHEMA_VERSION) {
      skip(lineNo, 'unsupported_version', `schema_version ${env.schema_version} (this build reads ${EVENT_SCHEMA_VERSION})`);
      continue;
    }
    const parsed = EVENT_SCHEMAS[env.type as EventType].safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      skip(lineNo, 'malformed', `${env.type}: ${issue.path.join('.') || '(event)'}: ${issue.message}`);
      continue;
    }
    stats.events++;
    events.push({ line: lineNo, event: parsed.data as IntercomEvent });
  }
  return { events, stats };
}

/** A log held in memory (tests, the browser's uploaded logs). Appends extend the text. */
export function createMemoryIntercomLog(location: string, initial: string | null = '', mtimeMs = 0): IntercomLogFile & { text(): string | null } {
  let text = initial;
  const encoder = new TextEncoder();
  return {
    location,
    text: () => text,
    async stat() {
      return text === null ? null : { size: encoder.encode(text).length, mtimeMs };
    },
    async read() {
      return text === null ? null : encoder.encode(text);
    },
    async append(line: string) {
      if (text === null) throw logMissing(location);
      text += (text === '' || text.endsWith('\n') ? '' : '\n') + line + '\n';
      mtimeMs++;
    },
  };
}
