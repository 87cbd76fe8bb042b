/**
 * The Host allow-list (DNS rebinding): a request is served only when its host name is one this server
 * answers for: localhost, 127.0.0.1, ::1, the host of PUBLIC_URL, ALLOWED_HOSTS (names, addresses and
 * CIDR ranges: an orchestrator's probes and scrapes come by pod IP), and the branded hosts
 * of the branding table. Anything else gets 421 Misdirected Request, in every mode, before any route
 * runs, so a page on rebind.evil.test whose name now points at 127.0.0.1 reads and changes nothing.
 * Behind a TRUST_PROXY proxy the host is the one the proxy forwarded (Fastify's req.host).
 * Only /healthz and /readyz answer any host: load balancers and orchestrators probe by address, and they tell
 * nothing. The branded hosts come from the branding cache (services/branding.ts): no query per request,
 * a host added elsewhere is served within BRANDING_CACHE_MS. The CSRF check (csrf.ts) compares Origin with this list too, never with Host alone.
 */
import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AllowedHosts } from '../env/parse.js';
import type { AppContext } from '../context.js';
import { apiError } from '../errors.js';
import type { BrandingCache } from '../services/branding.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const ANY_HOST_PATHS = new Set(['/healthz', '/readyz']);

/** Host name of a Host header value or URL host (port and IPv6 brackets removed, lower case); '' when unusable. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  return h.replace(/:\d*$/, '').replace(/\.$/, '');
}

export interface HostAllowList {
  /** Whether this host name (no port) is served. */
  allows(name: string): boolean;
  /** Origins (scheme://host[:port]) of the configured public URLs: an Origin equal to one of these is ours. */
  isPublicOrigin(origin: string): boolean;
}

/** The addresses and CIDR ranges of ALLOWED_HOSTS as one BlockList (node:net). */
function addressRanges(ranges: readonly string[]): net.BlockList {
  const list = new net.BlockList();
  for (const range of ranges) {
    const [address, bits] = range.split('/') as [string, string | undefined];
    const family = net.isIPv4(address) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

export function createHostAllowList(ctx: Pick<AppContext, 'branding' | 'config'>, extra: AllowedHosts): HostAllowList {
  const fixed = new Set([...LOOPBACK_NAMES, hostName(new URL(ctx.config.publicUrl).host), ...extra.names.map(hostName)]);
  const ranges = addressRanges(extra.ranges);
  const inRange = (name: string) => {
    const family = net.isIP(name);
    return family !== 0 && ranges.check(name, family === 4 ? 'ipv4' : 'ipv6');
  };
  const port = String(ctx.config.publicPort);
  return {
    allows: (name) => name !== '' && (fixed.has(name) || inRange(name) || ctx.branding.row(name) !== undefined),
    isPublicOrigin(origin) {
      if (origin === new URL(ctx.config.publicUrl).origin) return true;
      return ctx.branding.rows().some((r) => {
        if (r.public_url === null) return false;
        try {
          return new URL(r.public_url.replaceAll('{PORT}', port)).origin === origin;
        } catch {
          return false;
        }
      });
    },
  };
}

/** The request's host name as Fastify sees it (X-Forwarded-Host only from a TRUST_PROXY proxy). */
export const requestHost = (req: FastifyRequest): string => hostName(String(req.host ?? ''));

export function registerHostAllowList(app: FastifyInstance, hosts: HostAllowList, branding: Pick<BrandingCache, 'fresh'>): void {
  app.addHook('onRequest', async (req, reply) => {
    if (ANY_HOST_PATHS.has(req.url.split('?')[0] ?? '')) return;
    // At most one read of the branding table per BRANDING_CACHE_MS, whatever the traffic.
    await branding.fresh();
    if (hosts.allows(requestHost(req))) return;
    req.log.warn({ host: String(req.host ?? '').slice(0, 200) }, 'unknown host refused');
    return apiError(reply, 421, 'MISDIRECTED_REQUEST', 'This server does not answer for that host name');
  });
}
