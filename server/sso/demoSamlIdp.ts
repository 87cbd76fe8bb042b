/**
 * The demo tenant's SAML identity provider (demo mode only, mounted by routes/devSamlIdp.ts): a real
 * IdP for the real SP code. It reads the SP's signed AuthnRequest (HTTP-Redirect binding: the
 * signature over the raw query string is checked with the SP certificate of the connection the
 * Issuer names) and answers a Response whose Assertion it signs with its own key (RSA-SHA256,
 * exclusive c14n, xml-crypto). DEMO ONLY: its key pair is generated on first use and kept in
 * server_secrets, like the demo APP_SECRET; it asserts whichever email the sign-in page passed as
 * login_hint, as /dev/idp did.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import type { Database, Queryable } from '../db/data.js';
import { keepServerSecret, readServerSecret } from '../db/serverSecrets.js';
import { listConnections, getConnection, type SamlConnection, type Sealer } from './connections.js';
import { newSigningKeyPair, type KeyPair } from './keys.js';
import { spUrls } from './saml.js';

export const DEMO_IDP_PATH = '/dev/saml-idp';
const SECRET_NAME = 'demo-saml-idp-key';

export function demoIdpUrls(baseUrl: string): { entityId: string; ssoUrl: string; metadataUrl: string } {
  const base = `${baseUrl.replace(/\/+$/, '')}${DEMO_IDP_PATH}`;
  return { entityId: `${base}/metadata`, ssoUrl: `${base}/sso`, metadataUrl: `${base}/metadata` };
}

/**
 * A demo key pair made once per process for `name` (demo only: every demo database of this process may
 * start with the same one; generating a 2048-bit RSA key and its certificate takes a fraction of a
 * second, which every fresh demo tenant, e.g. of a test, would otherwise pay again).
 */
const demoPairs = new Map<string, Promise<KeyPair>>();
export function demoKeyPair(name: string, commonName: string, now: number): Promise<KeyPair> {
  let pair = demoPairs.get(name);
  if (!pair) demoPairs.set(name, (pair = newSigningKeyPair(commonName, 10, now)));
  return pair;
}

/** The demo IdP's key pair: made once per database and shared by its instances (server_secrets). */
export async function demoIdpKeys(data: Queryable, now: number): Promise<KeyPair> {
  const existing = await readServerSecret(data, SECRET_NAME);
  if (existing !== undefined) return JSON.parse(existing) as KeyPair;
  const pair = await demoKeyPair(SECRET_NAME, 'Front Door demo IdP (demo only)', now);
  return JSON.parse(await keepServerSecret(data, SECRET_NAME, JSON.stringify(pair), now)) as KeyPair;
}

export interface AuthnRequest {
  connection: SamlConnection;
  id: string;
  acsUrl: string;
  relayState: string;
  loginHint: string | undefined;
}

const SIG_ALGS: Record<string, string> = {
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256': 'RSA-SHA256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'RSA-SHA512',
};

/** The raw (still URL-encoded) value of a query parameter: the redirect binding signs those bytes. */
function rawParam(query: string, name: string): string | undefined {
  return query
    .split('&')
    .find((p) => p.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

/**
 * Reads and checks a signed AuthnRequest from the query string of GET /dev/saml-idp/sso. Throws an
 * Error with a sentence for the page when anything is wrong.
 */
export async function readAuthnRequest(rawQuery: string, data: Database, sealer: Sealer, baseUrl: string): Promise<AuthnRequest> {
  const raw = {
    request: rawParam(rawQuery, 'SAMLRequest'),
    relay: rawParam(rawQuery, 'RelayState'),
    alg: rawParam(rawQuery, 'SigAlg'),
    sig: rawParam(rawQuery, 'Signature'),
  };
  if (!raw.request || !raw.alg || !raw.sig) throw new Error('This sign-in request is not signed.');
  const params = new URLSearchParams(rawQuery);
  let xml: string;
  try {
    xml = zlib.inflateRawSync(Buffer.from(params.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  } catch {
    throw new Error('This sign-in request cannot be read.');
  }
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: () => undefined } }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  if (!root || root.localName !== 'AuthnRequest') throw new Error('This is not a SAML sign-in request.');
  const issuer = root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]?.textContent?.trim() ?? '';
  const candidates = (await listConnections(data)).filter((c) => c.protocol === 'saml' && spUrls(c.id, baseUrl).entityId === issuer);
  const connection = candidates[0] && (await getConnection(data, candidates[0].id, sealer));
  if (!connection || connection.protocol !== 'saml' || !connection.enabled) throw new Error('This application is not known to the demo identity provider.');
  const algorithm = SIG_ALGS[decodeURIComponent(raw.alg)];
  if (!algorithm) throw new Error('This sign-in request uses a signature algorithm the demo identity provider refuses.');
  const signed = `SAMLRequest=${raw.request}${raw.relay !== undefined ? `&RelayState=${raw.relay}` : ''}&SigAlg=${raw.alg}`;
  const ok = crypto.verify(algorithm, Buffer.from(signed), connection.settings.spCert, Buffer.from(decodeURIComponent(raw.sig), 'base64'));
  if (!ok) throw new Error('The signature of this sign-in request is wrong.');
  const acsUrl = root.getAttribute('AssertionConsumerServiceURL') ?? '';
  if (acsUrl !== spUrls(connection.id, baseUrl).acsUrl)
    throw new Error('This sign-in request asks for an answer at an address the application did not register.');
  const destination = root.getAttribute('Destination');
  if (destination && destination !== demoIdpUrls(baseUrl).ssoUrl) throw new Error('This sign-in request is meant for another identity provider.');
  return {
    connection,
    id: root.getAttribute('ID') ?? '',
    acsUrl,
    relayState: params.get('RelayState') ?? '',
    loginHint: params.get('login_hint') ?? undefined,
  };
}

export interface ResponseOptions {
  keys: KeyPair;
  baseUrl: string;
  spEntityId: string;
  acsUrl: string;
  inResponseTo: string;
  email: string;
  now: number;
  /** How long the assertion may be presented (default 5 minutes). */
  lifetimeMs?: number;
  /** Test seams: sign the assertion (default) or nothing; another audience / recipient. */
  sign?: boolean;
  audience?: string;
  recipient?: string;
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** A samlp:Response with one Assertion (signed), base64 as the POST binding carries it. */
export function buildSamlResponse(o: ResponseOptions): string {
  const idp = demoIdpUrls(o.baseUrl);
  const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const until = at(o.now + (o.lifetimeMs ?? 5 * 60_000));
  const id = (prefix: string) => `${prefix}${crypto.randomBytes(20).toString('hex')}`;
  const email = escapeXml(o.email);
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id('_a')}" Version="2.0" IssueInstant="${at(o.now)}">
<saml:Issuer>${escapeXml(idp.entityId)}</saml:Issuer>
<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID>
<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${escapeXml(o.inResponseTo)}" NotOnOrAfter="${until}" Recipient="${escapeXml(o.recipient ?? o.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>
<saml:Conditions NotBefore="${at(o.now - 30_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience ?? o.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>
<saml:AuthnStatement AuthnInstant="${at(o.now)}" SessionIndex="${id('_s')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>
<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>
</saml:Assertion>`;
  let response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id('_r')}" Version="2.0" IssueInstant="${at(o.now)}" Destination="${escapeXml(o.acsUrl)}" InResponseTo="${escapeXml(o.inResponseTo)}">
<saml:Issuer>${escapeXml(idp.entityId)}</saml:Issuer>
<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>
${assertion}
</samlp:Response>`;
  if (o.sign !== false) {
    const signer = new SignedXml({
      privateKey: o.keys.privateKey,
      publicCert: o.keys.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    signer.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signer.computeSignature(response, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
    response = signer.getSignedXml();
  }
  return Buffer.from(response, 'utf8').toString('base64');
}

/** The IdP's metadata (what an SP administrator imports): entity ID, SSO URL (redirect binding), certificate. */
export function demoIdpMetadata(baseUrl: string, cert: string): string {
  const idp = demoIdpUrls(baseUrl);
  const body = cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeXml(idp.entityId)}">
<md:IDPSSODescriptor WantAuthnRequestsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeXml(idp.ssoUrl)}"/>
</md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
}
