/**
 * Start-up configuration that can be wrong: the dev-tools switch, trusted proxies, the public base URL.
 * A bad value throws ConfigError, which main.ts prints as one line (no stack trace) before exiting.
 */
import net from 'node:net';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Dev tools (/dev/*, the demo seed, demo secrets) are off unless asked for: `DEV_TOOLS=1`, or the
 * `--demo` flag of `npm start` when NODE_ENV is not production. `DEV_TOOLS=0` turns them off whatever
 * the flag says.
 */
export function devToolsWanted(env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  if (env.DEV_TOOLS === '1') return true;
  if (env.DEV_TOOLS !== undefined && env.DEV_TOOLS !== '') {
    if (env.DEV_TOOLS !== '0') throw new ConfigError(`DEV_TOOLS must be 1 or 0, not ${JSON.stringify(env.DEV_TOOLS)}.`);
    return false;
  }
  return argv.includes('--demo') && env.NODE_ENV !== 'production';
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  return h.startsWith('::ffff:127.');
}

const ADDRESS = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;

/**
 * TRUST_PROXY: the addresses or CIDR ranges of the proxies in front of this server
 * (`10.0.0.0/8,127.0.0.1`). Only hops from these are believed in X-Forwarded-For/-Proto/-Host; any
 * other value (1, true, *) is refused, because trusting every hop lets a client pick its own address.
 */
export function parseTrustProxy(value: string | undefined): string[] | false {
  if (value === undefined || value.trim() === '') return false;
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = net.isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    if (!ADDRESS.test(entry) || family === 0 || (bits !== undefined && !(Number(bits) >= 0 && Number(bits) <= maxBits))) {
      throw new ConfigError(
        `TRUST_PROXY takes the addresses or CIDR ranges of your proxies, e.g. TRUST_PROXY=10.0.0.0/8,127.0.0.1; ${JSON.stringify(entry)} is not one${['1', 'true', '*'].includes(entry) ? ' (trusting every hop would let any client choose its own address)' : ''}.`,
      );
    }
  }
  return entries;
}

/** A public base URL (PUBLIC_URL or a branding row): http(s), no credentials, query or fragment; no trailing slash. */
export function parsePublicUrl(value: string, name = 'PUBLIC_URL'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL such as https://signin.example.com, not ${JSON.stringify(value)}.`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without credentials, query or fragment, not ${JSON.stringify(value)}.`);
  }
  return url.toString().replace(/\/+$/, '');
}

/** Comma-separated origins (ACADEMY_HOSTS): each an http(s) origin. */
export function parseOrigins(value: string | undefined, name: string): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => new URL(parsePublicUrl(entry, name)).origin);
}
