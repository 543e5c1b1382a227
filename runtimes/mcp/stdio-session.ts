// The lifetime of one MCP session over stdio, for the Node and Deno servers alike: serve until the
// client closes, a signal arrives, or stdin ends — and when stdin ends, first answer every request
// that arrived before the end (a client may write its last requests and close its end of the pipe
// at once; closing the server then would drop their answers). Owns that bookkeeping only: the
// runtime supplies the transport and how it hears of stdin's end and of signals.
import type { JSONRPCMessage, Server, Transport } from './sdk/server.ts';

/** How long, after stdin ended, requests still running may take to answer before the server closes anyway. */
export const DRAIN_LIMIT_MS = 60_000;

export interface StdioPlatform {
  /** Calls fn when stdin has ended (EOF) or closed (more than once is fine: the session acts on the first). */
  onInputEnd(fn: () => void): void;
  /** Calls fn on SIGINT/SIGTERM until the returned function is called. */
  onSignal(fn: () => void): () => void;
  log?(msg: string): void;
}

type Id = string | number;
const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: Id; method: string } => 'method' in m && 'id' in m && m.id !== undefined;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: Id } => !('method' in m) && 'id' in m && ('result' in m || 'error' in m);

/**
 * Counts the requests the server has received and not yet answered, by watching the transport's
 * messages both ways (the SDK's Protocol chains an onmessage set before it connects).
 */
export function trackRequests(transport: Transport): { pending(): number; drained(): Promise<void> } {
  const open = new Set<Id>();
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (open.size) return;
    for (const w of waiters) w();
    waiters = [];
  };
  const previous = transport.onmessage;
  transport.onmessage = (m, extra) => {
    if (isRequest(m)) open.add(m.id);
    previous?.(m, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (m, opts) => {
    try {
      await send(m, opts);
    } finally {
      if (isResponse(m) && open.delete(m.id)) settle();
    }
  };
  return {
    pending: () => open.size,
    drained: () => (open.size ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve()),
  };
}

/** Connects the server to the transport and resolves once the session is over and the server closed. */
export async function runStdioSession(server: Server, transport: Transport, platform: StdioPlatform): Promise<void> {
  const requests = trackRequests(transport);
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  server.onclose = finish;
  server.onerror = (e) => platform.log?.(`protocol: ${e.message}`);
  const offSignal = platform.onSignal(finish);
  let inputEnded = false;
  platform.onInputEnd(() => {
    if (inputEnded) return;
    inputEnded = true;
    const n = requests.pending();
    if (n === 0) return finish();
    platform.log?.(`stdin ended with ${n} request${n === 1 ? '' : 's'} still running: answering ${n === 1 ? 'it' : 'them'} first`);
    const limit = setTimeout(() => {
      platform.log?.(`closing with ${requests.pending()} request(s) unanswered after ${DRAIN_LIMIT_MS} ms`);
      finish();
    }, DRAIN_LIMIT_MS);
    void requests.drained().then(() => {
      clearTimeout(limit);
      finish();
    });
  });
  await server.connect(transport);
  await done;
  offSignal();
  server.onclose = undefined;
  await server.close().catch(() => {});
}
