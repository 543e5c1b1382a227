// The network guard of the MCP HTTP servers (through http-endpoint.ts, for Node and Deno), free of any
// runtime API: refuse unsafe setups before listening (beyond loopback needs a bearer token), and check
// every request's Host and Origin (DNS rebinding) and bearer token. The caller supplies the machine's
// own names (host name, interface addresses), which only matter when binding beyond loopback.
import { HciError } from '../../core/platform.ts';

export const TOKEN_ENV = 'HCI_MCP_TOKEN';
export const MCP_PATH = '/mcp';

export interface GuardOptions {
  host: string;
  port: number;
  /** Bearer token; required when `host` is not loopback. */
  token?: string;
  /** More Host names to accept (a reverse proxy's name, a LAN name). */
  allowedHosts?: string[];
  /** More Origins to accept (exact, e.g. http://my-ide.local:3000). */
  allowedOrigins?: string[];
}

/** The machine's own names, asked only for binds beyond loopback. */
export interface MachineNames {
  hostname(): string;
  /** Interface addresses (IPv6 without brackets); asked only for wildcard binds (0.0.0.0, ::). */
  addresses(): string[];
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** Refuses unsafe configurations before anything listens. */
export function checkHttpOptions(o: Pick<GuardOptions, 'host' | 'port' | 'token'>): void {
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    throw new HciError('invalid_arguments', `--port must be an integer from 0 to 65535 (got ${o.port})`, '0 picks a free port');
  }
  if (!isLoopback(o.host) && !o.token) {
    throw new HciError(
      'token_required',
      `refusing to listen on ${o.host} (beyond loopback) without a bearer token`,
      `set ${TOKEN_ENV} to a long random secret (clients send "Authorization: Bearer <token>"), or bind 127.0.0.1`,
    );
  }
}

function hostNameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const i = h.lastIndexOf(':');
  return i >= 0 ? h.slice(0, i) : h;
}

function allowedHostNames(o: GuardOptions, machine: MachineNames): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  const bind = o.host.toLowerCase();
  names.add(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
  if (!isLoopback(o.host)) {
    names.add(machine.hostname().toLowerCase());
    if (bind === '0.0.0.0' || bind === '::' || bind === '[::]') {
      for (const a of machine.addresses()) names.add(a.includes(':') ? `[${a.toLowerCase()}]` : a);
    }
  }
  for (const h of o.allowedHosts ?? []) names.add(h.toLowerCase());
  return names;
}

async function sha256(s: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s)));
}

/** Constant-time comparison of two equal-length digests. */
function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** What to log (Host and Origin refusals), if anything. */
  log?: string;
}

export interface RequestHeaders {
  host?: string | null;
  origin?: string | null;
  authorization?: string | null;
}

/** The JSON-RPC error body every refusal carries. */
export function refusalBody(message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** A request checker for one server: null lets the request through, a Refusal says how to answer. */
export function createRequestGuard(o: GuardOptions, machine: MachineNames): (h: RequestHeaders) => Promise<Refusal | null> {
  const hosts = allowedHostNames(o, machine);
  const origins = new Set((o.allowedOrigins ?? []).map((x) => x.toLowerCase().replace(/\/$/, '')));
  const tokenDigest = o.token ? sha256(o.token) : null;

  const originAllowed = (origin: string): boolean => {
    if (origins.has(origin.toLowerCase())) return true;
    try {
      const u = new URL(origin);
      const name = u.hostname.includes(':') && !u.hostname.startsWith('[') ? `[${u.hostname}]` : u.hostname;
      return (u.protocol === 'http:' || u.protocol === 'https:') && hosts.has(name.toLowerCase());
    } catch {
      return false;
    }
  };

  return async (h) => {
    // DNS rebinding: a page on evil.example that resolves to 127.0.0.1 still sends its own Host.
    const hostHeader = h.host ?? undefined;
    if (!hostHeader || !hosts.has(hostNameOf(hostHeader))) {
      return { status: 403, message: `forbidden: Host "${hostHeader ?? ''}" is not allowed (DNS rebinding protection)`, log: `http: refused Host ${JSON.stringify(hostHeader ?? '')}` };
    }
    const origin = h.origin ?? undefined;
    if (origin !== undefined && !originAllowed(origin)) {
      return { status: 403, message: `forbidden: Origin "${origin}" is not allowed`, log: `http: refused Origin ${JSON.stringify(origin)}` };
    }
    if (tokenDigest) {
      const m = /^Bearer\s+(.+)$/i.exec(h.authorization ?? '');
      if (!m || !sameDigest(await sha256(m[1].trim()), await tokenDigest)) {
        return { status: 401, message: 'unauthorized: send "Authorization: Bearer <token>"', headers: { 'www-authenticate': 'Bearer realm="hci"' } };
      }
    }
    return null;
  };
}
