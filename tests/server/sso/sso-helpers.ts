/** What the SSO tests share: a visible test sealer and a SAML connection to the demo IdP. */
import type { Database } from '../../../server/db/data';
import { addConnection, type Sealer } from '../../../server/sso/connections';
import { demoIdpKeys, demoIdpMetadata } from '../../../server/sso/demoSamlIdp';
import type { KeyPair } from '../../../server/sso/keys';
import { parseIdpMetadata } from '../../../server/sso/metadata';

/** Reversible and visibly sealed (the server's sealer is AES-256-GCM under APP_SECRET). */
export const testSealer: Sealer = {
  seal: (s: string) => `sealed:${Buffer.from(s).toString('base64')}`,
  unseal: (s: string) => Buffer.from(s.slice(7), 'base64').toString(),
};

/**
 * Adds a SAML connection named "Demo IdP" to the demo IdP served at `base` (read from its metadata,
 * as an administrator's sso-add-saml does), with the SP key pair `sp`; its number.
 */
export async function addDemoIdpConnection(db: Database, options: { base: string; organizationId: number; sp: KeyPair; now: number }): Promise<number> {
  const idp = parseIdpMetadata(demoIdpMetadata(options.base, (await demoIdpKeys(db, options.now)).cert));
  return addConnection(
    db,
    {
      protocol: 'saml',
      organizationId: options.organizationId,
      name: 'Demo IdP',
      settings: { idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, idpCerts: idp.certs, spCert: options.sp.cert },
      secrets: { spPrivateKey: options.sp.privateKey },
    },
    testSealer,
    options.now,
  );
}

/** A tiny cookie jar: enough for the IdPs' cookies and ours. */
export class Browser {
  jar = new Map<string, string>();
  constructor(readonly base: string) {}
  header(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(new URL(url, this.base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.header() },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      if (name) this.jar.set(name.trim(), rest.join('='));
    }
    return res;
  }
  post(url: string, fields: Record<string, string>) {
    return this.go(url, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
}

export const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`)
    .exec(html)?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"') ?? '';
export const action = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
