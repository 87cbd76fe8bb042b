/**
 * The WebAuthn relying party of a request (passkeys and the security keys of MFA: registration and
 * sign-in alike), and the origins that share the deployment's RP ID (/.well-known/webauthn,
 * routes/wellKnown.ts; docs/mfa.md "One RP ID for every host").
 *
 * The origin is the configured public URL of the host the visitor used (PUBLIC_URL, or the branding
 * row's public_url; localhost in the demo), never the Host header, so a forged Host cannot make the
 * server accept an assertion made for another origin. The RP ID is WEBAUTHN_RP_ID when the deployment
 * has one (a passkey made on any host then signs in on every other: the hosts outside the RP ID's
 * domain are its related origins), else the host of that public URL (each host its own).
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { BrandingRow } from './branding.js';
import { publicBase } from './publicUrl.js';

export function relyingParty(ctx: Pick<AppContext, 'branding' | 'config'>, req: FastifyRequest): { origin: string; rpID: string } {
  const url = new URL(publicBase(ctx, req));
  return { origin: url.origin, rpID: ctx.config.webauthnRpId ?? url.hostname.replace(/^\[|\]$/g, '') };
}

/** The origin of an enabled branded host's public URL ('{PORT}': the server's port), or undefined. */
function brandedOrigin(row: BrandingRow, port: string): string | undefined {
  if (row.is_enabled !== 1 || !row.public_url) return undefined;
  try {
    return new URL(row.public_url.replaceAll('{PORT}', port)).origin;
  } catch {
    // A row whose URL is none: publicBase does not use it either.
    return undefined;
  }
}

/**
 * The origins that make and use passkeys of the deployment's RP ID: PUBLIC_URL's and every enabled
 * branded host's (read from the branding cache: a host added is listed within its few seconds), each
 * once; undefined when each host is its own RP ID.
 */
export function relatedOrigins(ctx: Pick<AppContext, 'branding' | 'config'>): string[] | undefined {
  if (ctx.config.webauthnRpId === undefined) return undefined;
  const port = String(ctx.config.publicPort);
  const branded = ctx.branding.rows().flatMap((row) => brandedOrigin(row, port) ?? []);
  return [...new Set([new URL(ctx.config.publicUrl).origin, ...branded])];
}
