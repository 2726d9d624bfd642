import net from 'node:net';

/**
 * TRUST_PROXY, as read: `false` trusts no proxy, so `request.ip` is the socket's peer; a hop count
 * trusts that many proxies nearest the server, whatever their address; a list trusts the proxies at
 * those addresses; `true` trusts every hop, i.e. whatever the client writes in `X-Forwarded-For`.
 */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's trust function: whether the hop at `index` (0: the socket's peer) is a trusted proxy. */
export type TrustProxyFunction = (address: string, index: number) => boolean;

/**
 * The value for Fastify's `trustProxy` option; Fastify (proxy-addr) reads X-Forwarded-For with it.
 * Fastify 5 ignores a bare number (it trusts nothing then), so a hop count becomes the trust function
 * proxy-addr itself builds for one: the `hops` nearest addresses are proxies.
 */
export function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | TrustProxyFunction {
  if (typeof trust !== 'number') return trust;
  if (trust === 0) return false;
  return (_address, index) => index < trust;
}

/** proxy-addr's named ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 32;

/** Whether an entry is an address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or a proxy-addr range name. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Reads TRUST_PROXY: unset means `false`. `true`/`false` (any case), a hop count (0 to 32), or a
 * comma-separated list of addresses, CIDR ranges and proxy-addr's names (`loopback`, `linklocal`,
 * `uniquelocal`). Returns a message for anything else: X-Forwarded-For is parsed by Fastify
 * (proxy-addr) alone, this only checks what it will be given.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy | { error: string } {
  const text = value?.trim() ?? '';
  if (text === '') return false;
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= MAX_HOPS ? hops : { error: `a hop count must be between 0 and ${MAX_HOPS}` };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined) {
    return {
      error: `${JSON.stringify(bad)} is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal (expected true, false, a hop count, or a comma-separated list of those)`,
    };
  }
  return entries;
}
