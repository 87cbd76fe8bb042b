/**
 * Security headers on every answer (HTML, JSON, assets, errors, 404s): one onSend hook, so no route can
 * forget them. The SPA's HTML gets the strict Content-Security-Policy; server-rendered HTML (the /dev
 * pages) gets the same policy plus the sha256 hashes of its own inline <style>/<script> blocks, never
 * 'unsafe-inline'; every other answer gets a policy that allows nothing (a JSON body opened as a
 * document can run nothing and be framed by no one).
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pageStylesOf } from './page-styles.js';
import { isApiRequest } from './requestPath.js';

export interface CspOptions {
  /** reCAPTCHA Enterprise configured: Google's script and frame hosts are allowed (only then). */
  recaptcha?: boolean;
  /** Extra origins forms may post to (help-centre hosts, an external IdP). 'self' is always allowed. */
  formActionOrigins?: string[];
  /** Extra origins fetch/XHR may reach (the error-reporting ingest host when a DSN is configured). */
  connectOrigins?: string[];
  /** Hash sources ('sha256-...') for inline <script> blocks of a server-rendered page. */
  scriptHashes?: string[];
  /** Hash sources ('sha256-...') for inline <style> blocks of a server-rendered page. */
  styleHashes?: string[];
  /** Enforce Trusted Types for DOM XSS sinks (default true). */
  trustedTypes?: boolean;
}

const RECAPTCHA_SCRIPT = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAME = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];

const list = (values: string[] | undefined): string => (values && values.length ? ' ' + values.join(' ') : '');
const quoted = (hashes: string[] | undefined): string[] => (hashes ?? []).map((h) => `'${h}'`);

/**
 * The app's Content-Security-Policy (DESIGN.md: no eval, no inline script). script-src is 'self' only;
 * the precompiled validators mean no 'unsafe-eval' is needed anywhere.
 */
export function contentSecurityPolicy(options: CspOptions = {}): string {
  const recaptcha = options.recaptcha === true;
  const directives = [
    "default-src 'self'",
    `script-src 'self'${list(quoted(options.scriptHashes))}${recaptcha ? list(RECAPTCHA_SCRIPT) : ''}`,
    `style-src 'self'${list(quoted(options.styleHashes))}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${list(options.connectOrigins)}${recaptcha ? ' https://www.google.com/recaptcha/' : ''}`,
    `frame-src 'self'${recaptcha ? list(RECAPTCHA_FRAME) : ''}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "media-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${list(options.formActionOrigins)}`,
    "frame-ancestors 'none'",
  ];
  // Trusted Types: no string may reach innerHTML / script.src & co. unless a named policy made it.
  // reCAPTCHA's loader injects its own scripts, so the provider's pages run without enforcement.
  if (options.trustedTypes !== false && !recaptcha) directives.push("require-trusted-types-for 'script'", "trusted-types 'none'");
  return directives.join('; ');
}

/** Policy for answers that are not HTML (JSON, images, scripts, text): nothing may run or frame them. */
export const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  // WebAuthn (hardware-key MFA) stays available to this origin only.
  'publickey-credentials-get=(self)',
  'publickey-credentials-create=(self)',
].join(', ');

export const HSTS = 'max-age=63072000; includeSubDomains';

const INLINE = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;

/** sha256 CSP sources of the inline <script> (without src) and <style> blocks of an HTML string. */
export function inlineHashes(html: string): { scriptHashes: string[]; styleHashes: string[] } {
  const scriptHashes = new Set<string>();
  const styleHashes = new Set<string>();
  for (const [, tag, attrs, body] of html.matchAll(INLINE)) {
    if (body === undefined || body === '') continue;
    if (tag?.toLowerCase() === 'script' && /\bsrc\s*=/.test(attrs ?? '')) continue;
    const hash = 'sha256-' + crypto.createHash('sha256').update(body, 'utf8').digest('base64');
    (tag?.toLowerCase() === 'script' ? scriptHashes : styleHashes).add(hash);
  }
  return { scriptHashes: [...scriptHashes], styleHashes: [...styleHashes] };
}

/** Origin of a URL string, or undefined (for configured hosts that may carry a path). */
export function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's own Content-Security-Policy for its HTML (only the dev studio); replaces the app's policy. */
    contentSecurityPolicy?: string;
  }
}

export interface SecurityHeadersOptions extends Omit<CspOptions, 'scriptHashes' | 'styleHashes'> {
  /** Policy for the SPA's HTML; false sends no CSP on HTML (tests of other concerns only). */
  contentSecurityPolicy?: string | false;
  /** Whether a request is secure (HSTS): services/publicUrl.ts secureRequest (default: it came over https). */
  isSecure?: (req: FastifyRequest) => boolean;
}

/**
 * The headers every answer carries whatever its type. A route that writes its answer itself (the Duo
 * event stream, after reply.hijack(), which skips onSend) sends these, with NON_HTML_CSP, by hand.
 */
export function commonSecurityHeaders(req: FastifyRequest, secure = req.protocol === 'https'): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': PERMISSIONS_POLICY,
    // same-origin-allow-popups, not same-origin: the Duo popup must stay reachable to notice it closed.
    'Cross-Origin-Opener-Policy': 'same-origin-allow-popups',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Permitted-Cross-Domain-Policies': 'none',
    // Whenever the request or its public URL is https (a TLS proxy that TRUST_PROXY does not name still
    // serves the visitor https; browsers ignore the header on plain http).
    ...(secure ? { 'Strict-Transport-Security': HSTS } : {}),
  };
}

function isHtml(reply: FastifyReply): boolean {
  return /^\s*text\/html\b/i.test(String(reply.getHeader('content-type') ?? ''));
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeadersOptions = {}): void {
  const htmlPolicy = options.contentSecurityPolicy ?? contentSecurityPolicy(options);

  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    for (const [name, value] of Object.entries(commonSecurityHeaders(req, options.isSecure?.(req)))) reply.header(name, value);
    // API answers carry tokens, codes and secrets (login, reset-password-verify, config-totp,
    // validate-invitation …): no cache keeps them unless a route chose its own policy (app-config, branding).
    // The path as the router saw it (security/requestPath.ts): /ws/account/logou%74 is an API answer too.
    if (isApiRequest(req) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');

    // A 304 has no body and no content type; browsers merge its headers into the cached answer, so a
    // policy here would replace the cached HTML's own (a reloaded page then ran nothing). Leave it out.
    if (reply.statusCode === 304) {
      reply.removeHeader('Content-Security-Policy');
      return payload;
    }
    // A route may declare its own page policy in its config (only the dev-only /dev/studio does:
    // see server/routes/studio/bundle.ts STUDIO_CSP); explicit per route, so nothing loosens by accident.
    const own = (req.routeOptions?.config as { contentSecurityPolicy?: unknown } | undefined)?.contentSecurityPolicy;
    if (typeof own === 'string' && isHtml(reply)) {
      reply.header('Content-Security-Policy', own);
      return payload;
    }
    if (!isHtml(reply)) {
      reply.header('Content-Security-Policy', NON_HTML_CSP);
      return payload;
    }
    if (htmlPolicy === false) {
      reply.removeHeader('Content-Security-Policy');
      return payload;
    }
    // Server-rendered pages arrive as strings; the SPA's index.html is a file stream without inline code.
    if (typeof payload === 'string' && /<(script|style)\b/i.test(payload)) {
      reply.header('Content-Security-Policy', contentSecurityPolicy({ ...options, ...inlineHashes(payload) }));
    } else if (pageStylesOf(req) && options.contentSecurityPolicy === undefined) {
      // The app's page with the entry's CSS inline (server/spa/html.ts): its build-time hashes only.
      reply.header('Content-Security-Policy', contentSecurityPolicy({ ...options, styleHashes: pageStylesOf(req) }));
    } else {
      reply.header('Content-Security-Policy', htmlPolicy);
    }
    return payload;
  });
}

/**
 * An answer that sets a cookie is never kept by a shared cache: it would hand one visitor's cookie (the
 * page's fd_bind nonce) to every next one. `private` joins its Cache-Control (`public` leaves it), or
 * `private, no-cache` when it has none. Registered after @fastify/cookie, whose own onSend hook writes
 * the Set-Cookie header of reply.setCookie.
 */
export function registerPrivateCookieAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!reply.hasHeader('set-cookie')) return payload;
    const directives = String(reply.getHeader('cache-control') ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter((d) => d !== '' && d.toLowerCase() !== 'public');
    if (directives.some((d) => /^(private|no-store)$/i.test(d))) return payload;
    reply.header('Cache-Control', ['private', ...(directives.length ? directives : ['no-cache'])].join(', '));
    return payload;
  });
}
