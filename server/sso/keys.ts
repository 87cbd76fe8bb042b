/**
 * Key pairs with a self-signed certificate (selfsigned): the SP signing key of a SAML connection
 * (made by `npm run admin -- sso-add-saml` unless the operator brings one) and the demo IdP's key.
 * SAML peers trust the certificate itself (exchanged in metadata), not a CA, so self-signed is normal.
 */
import crypto from 'node:crypto';
import { generate } from 'selfsigned';

export interface KeyPair {
  privateKey: string;
  cert: string;
}

export async function newSigningKeyPair(commonName: string, years = 10, now = Date.now()): Promise<KeyPair> {
  const pems = await generate([{ name: 'commonName', value: commonName.slice(0, 64) }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + years * 365 * 24 * 60 * 60_000),
  });
  return { privateKey: pems.private, cert: pems.cert };
}

/** PEM certificate → its base64 body (metadata's X509Certificate) and back. */
export function certBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
export function certPem(body: string): string {
  const clean = body.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${clean.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
}

/** Checks that a PEM is a certificate Node can read (admin input); returns its subject and expiry. */
export function describeCert(pem: string): { subject: string; validTo: string; fingerprint: string } {
  const x = new crypto.X509Certificate(pem);
  return { subject: x.subject.replace(/\n/g, ', '), validTo: x.validTo, fingerprint: x.fingerprint256 };
}
