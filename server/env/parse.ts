/**
 * The parsers of the start-up settings whose values have a shape (addresses, URLs, host lists): a bad
 * value throws ConfigError, a sentence naming the variable, which main.ts prints as one log line (no
 * stack trace) before exiting. server/env/variables.ts checks every variable with them.
 */
import net from 'node:net';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
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

/** PostgreSQL connection string (DATABASE_URL): postgres:// or postgresql://, a host (or ?host= socket folder) and a database name. */
export function parseDatabaseUrl(value: string): string {
  const shown = value.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@db.internal:5432/frontdoor, not ${JSON.stringify(shown)}.`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must start with postgres:// or postgresql:// (it selects PostgreSQL; for the embedded SQLite set DB_PATH instead), not ${JSON.stringify(shown)}.`,
    );
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError(`DATABASE_URL names no host: ${JSON.stringify(shown)}.`);
  if (url.pathname.replace(/^\//, '') === '') throw new ConfigError(`DATABASE_URL names no database (…/frontdoor at the end): ${JSON.stringify(shown)}.`);
  return value;
}

/** Shortest APP_SECRET / APP_SECRET_PREVIOUS / HELPCENTER_JWT_SECRET accepted. */
export const MIN_SECRET_LENGTH = 32;

/** Host names and IP ranges this server answers for (ALLOWED_HOSTS): names, addresses and CIDR ranges. */
export interface AllowedHosts {
  names: string[];
  /** Addresses and CIDR ranges (`10.0.0.0/8`, `fd00::/8`): a request to an address inside one is served (probes by pod IP). */
  ranges: string[];
}

/** A DNS host name, lower case (labels of letters, digits and inner hyphens). */
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * WEBAUTHN_RP_ID: the one WebAuthn relying party ID of the deployment, a domain name (no scheme, port
 * or path, not an IP address: WebAuthn refuses those), lower case.
 */
export function parseRpId(value: string): string {
  const name = value.trim().toLowerCase().replace(/\.$/, '');
  if (!HOST_NAME.test(name) || net.isIP(name) !== 0 || name.length > 253)
    throw new ConfigError(`WEBAUTHN_RP_ID must be a domain name such as example.com (no scheme, port or path, not an address), not ${JSON.stringify(value)}.`);
  return name;
}

/**
 * Whether a host may claim the RP ID without related origins: it is the RP ID or a subdomain of it.
 * PUBLIC_URL's host must, so that sign-in works on the main host in every browser, also those that
 * do not fetch /.well-known/webauthn.
 */
export function hostClaimsRpId(host: string, rpId: string): boolean {
  return host === rpId || host.endsWith(`.${rpId}`);
}

/**
 * The deployment's RP ID: WEBAUTHN_RP_ID (checked against PUBLIC_URL), else in demo mode PUBLIC_URL's
 * host when it is a name (so the demo's branded.localhost shares localhost's), else undefined: each
 * host is its own RP ID, as before the setting existed (passkeys made per host keep working).
 */
export function webauthnRpId(setting: string | undefined, publicUrl: string, demo: boolean): string | undefined {
  const publicHost = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  if (setting === undefined || setting === '') return demo && net.isIP(publicHost) === 0 ? publicHost : undefined;
  const rpId = parseRpId(setting);
  if (!hostClaimsRpId(publicHost, rpId)) throw new ConfigError(rpIdNotCovering(rpId, publicHost));
  return rpId;
}

export const rpIdNotCovering = (rpId: string, publicHost: string): string =>
  `WEBAUTHN_RP_ID (${rpId}) must be PUBLIC_URL's host (${publicHost}) or a parent domain of it, so that passkeys work on the main host in every browser; other hosts use it through /.well-known/webauthn.`;

/**
 * ALLOWED_HOSTS: comma-separated host names (signin.internal), addresses (10.1.2.3) and CIDR ranges
 * (10.0.0.0/8), no scheme or port.
 */
export function parseAllowedHosts(value: string | undefined): AllowedHosts {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const names: string[] = [];
  const ranges: string[] = [];
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = net.isIP(address);
    if (family !== 0) {
      const max = family === 4 ? 32 : 128;
      if (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))
        throw new ConfigError(`ALLOWED_HOSTS: ${JSON.stringify(entry)} is not a CIDR range (an address, then /0 to /${max}).`);
      ranges.push(entry);
    } else if (bits === undefined && HOST_NAME.test(entry)) {
      names.push(entry);
    } else {
      throw new ConfigError(`ALLOWED_HOSTS takes host names (signin.internal), addresses and CIDR ranges (10.0.0.0/8), not ${JSON.stringify(entry)}.`);
    }
  }
  return { names, ranges };
}
