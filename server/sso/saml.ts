/**
 * SAML 2.0 service provider per connection (@node-saml/node-saml):
 * - `startSaml` answers saml-init: the IdP's URL with a signed SAMLRequest (HTTP-Redirect binding,
 *   RSA-SHA256), its ID remembered for InResponseTo, and a short random RelayState that names the
 *   round trip's state in sso_requests (connection, staySignedIn, returnTo, the browser's nonce hash);
 * - `finishSaml` is the assertion consumer: it takes the state once, checks the browser, then node-saml
 *   checks the signature (the assertion must be signed by a certificate of the connection), issuer,
 *   audience, time window (1 minute of skew) and InResponseTo, and this module the Destination and
 *   Recipient (our ACS URL), the InResponseTo of this browser's request, and the one-time use of the
 *   assertion ID (used_tokens: of two instances racing with one assertion, one wins);
 * - `spMetadata` is the SP metadata the IdP's administrator imports.
 * Every refusal has a reason code and a sentence for the visitor (REFUSALS).
 */
import crypto from 'node:crypto';
import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { Database } from '../db/data.js';
import { spendTokenId } from '../db/usedTokens.js';
import type { SamlConnection } from './connections.js';
import { browserBinding, newStateValue, putRequest, samlRequestCache, takeRequest, type SsoStartOptions } from './requests.js';

/** Clock difference accepted between the IdP and us. */
export const SAML_CLOCK_SKEW_MS = 60_000;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';

export type SamlRefusal =
  | 'STATE_UNKNOWN'
  | 'OTHER_BROWSER'
  | 'UNSIGNED'
  | 'TAMPERED'
  | 'EXPIRED'
  | 'WRONG_AUDIENCE'
  | 'WRONG_RECIPIENT'
  | 'WRONG_ISSUER'
  | 'REPLAYED'
  | 'IDP_ERROR'
  | 'NO_EMAIL'
  | 'MALFORMED';

/** What the visitor reads for each refusal (the log gets the library's detail). */
export const REFUSALS: Record<SamlRefusal, string> = {
  STATE_UNKNOWN: 'This sign-in took too long or was already completed. Start again from the sign-in page.',
  OTHER_BROWSER: 'This sign-in was started in another browser. Start again from the sign-in page in this one.',
  UNSIGNED: 'The identity provider sent an answer that is not signed. Ask your administrator to make it sign its SAML assertions.',
  TAMPERED: "The identity provider's answer was changed on the way or is signed with a key this connection does not trust.",
  EXPIRED: "The identity provider's answer has expired (or its clock is wrong). Start again from the sign-in page.",
  WRONG_AUDIENCE: "The identity provider's answer is meant for another application. Ask your administrator to check the SSO connection.",
  WRONG_RECIPIENT: "The identity provider's answer was sent to another address. Ask your administrator to check the SSO connection.",
  WRONG_ISSUER: 'The answer does not come from the identity provider of this connection.',
  REPLAYED: 'This answer of the identity provider was used already. Start again from the sign-in page.',
  IDP_ERROR: 'The identity provider did not sign you in.',
  NO_EMAIL: 'The identity provider did not say which email address you signed in with.',
  MALFORMED: "The identity provider's answer could not be read.",
};

export type SamlResult =
  | { ok: true; email: string; nameId: string; staySignedIn: boolean; returnTo?: string | undefined; sessionIndex?: string | undefined }
  | { ok: false; reason: SamlRefusal; message: string; detail: string };

interface SamlState {
  c: number;
  rid: string;
  ssi: boolean;
  rt?: string;
  b: string;
}

export interface SpUrls {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
}

/** Our SP's addresses for a connection under a public base URL (PUBLIC_URL or the branded host's). */
export function spUrls(connectionId: number, baseUrl: string): SpUrls {
  const base = `${baseUrl.replace(/\/+$/, '')}/sso/saml/${connectionId}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
}

function samlFor(connection: SamlConnection, baseUrl: string, data: Database, now: () => number, requestId?: string): SAML {
  const urls = spUrls(connection.id, baseUrl);
  const config: SamlConfig = {
    issuer: urls.entityId,
    audience: urls.entityId,
    callbackUrl: urls.acsUrl,
    entryPoint: connection.settings.idpSsoUrl,
    idpIssuer: connection.settings.idpEntityId,
    idpCert: connection.settings.idpCerts,
    privateKey: connection.secrets.spPrivateKey,
    publicCert: connection.settings.spCert,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: samlRequestCache(data, now),
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  };
  return new SAML(config);
}

/** The URL saml-init answers: the IdP's SSO URL with SAMLRequest, RelayState, SigAlg and Signature. */
export async function startSaml(connection: SamlConnection, options: SsoStartOptions): Promise<string> {
  const requestId = `_${crypto.randomBytes(20).toString('hex')}`;
  const relayState = newStateValue();
  const state: SamlState = {
    c: connection.id,
    rid: requestId,
    ssi: options.staySignedIn,
    b: browserBinding(options.browserNonce),
    ...(options.returnTo ? { rt: options.returnTo } : {}),
  };
  await putRequest(options.data, `saml-state:${relayState}`, state, options.now());
  const saml = samlFor(connection, options.baseUrl, options.data, options.now, requestId);
  return saml.getAuthorizeUrlAsync(relayState, undefined, { additionalParams: options.loginHint ? { login_hint: options.loginHint } : {} });
}

function refusal(reason: SamlRefusal, detail: string): SamlResult {
  return { ok: false, reason, message: REFUSALS[reason], detail };
}

/** node-saml's error → our reason. */
function classify(message: string): SamlRefusal {
  if (/InResponseTo/i.test(message)) return 'REPLAYED';
  if (/audience/i.test(message)) return 'WRONG_AUDIENCE';
  // "No valid subject confirmation": its NotOnOrAfter passed (the InResponseTo cases are caught above).
  if (/expired|not yet valid|too old|subject confirmation/i.test(message)) return 'EXPIRED';
  if (/issuer/i.test(message)) return 'WRONG_ISSUER';
  if (/Bad status code|NoPassive/i.test(message)) return 'IDP_ERROR';
  if (/signature/i.test(message)) return 'TAMPERED';
  return 'MALFORMED';
}

function attr(el: Element | undefined | null, name: string): string | null {
  return el && el.hasAttribute(name) ? el.getAttribute(name) : null;
}

export interface FinishOptions {
  data: Database;
  now: () => number;
  baseUrl: string;
  /** The browser's nonce cookie, if it sent one. */
  browserNonce: string | undefined;
}

/** The assertion consumer: POST /sso/saml/{id}/acs with SAMLResponse and RelayState. */
export async function finishSaml(
  connection: SamlConnection,
  body: { SAMLResponse?: unknown; RelayState?: unknown },
  options: FinishOptions,
): Promise<SamlResult> {
  if (typeof body.SAMLResponse !== 'string' || typeof body.RelayState !== 'string' || body.RelayState.length > 80)
    return refusal('MALFORMED', 'SAMLResponse or RelayState missing');
  const state = await takeRequest<SamlState>(options.data, `saml-state:${body.RelayState}`, options.now());
  if (!state || state.c !== connection.id) return refusal('STATE_UNKNOWN', 'no such RelayState for this connection');
  if (!options.browserNonce || browserBinding(options.browserNonce) !== state.b)
    return refusal('OTHER_BROWSER', 'the browser nonce does not match the one that started');

  let xml: string;
  let doc: Document;
  try {
    xml = Buffer.from(body.SAMLResponse, 'base64').toString('utf8');
    doc = new DOMParser({ errorHandler: { warning: () => undefined, error: () => undefined } }).parseFromString(xml, 'text/xml') as unknown as Document;
  } catch (error) {
    return refusal('MALFORMED', (error as Error).message);
  }
  const response = doc.documentElement;
  if (!response || response.localName !== 'Response' || response.namespaceURI !== PROTOCOL_NS) return refusal('MALFORMED', 'not a samlp:Response');
  const assertions = doc.getElementsByTagNameNS(ASSERTION_NS, 'Assertion');
  const assertion = assertions.length === 1 ? assertions[0] : undefined;
  // An assertion without its own signature: say "unsigned" (node-saml would say "Invalid signature").
  if (assertion && assertion.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature').length === 0)
    return refusal('UNSIGNED', 'the assertion carries no Signature');

  const saml = samlFor(connection, options.baseUrl, options.data, options.now);
  let profile;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
  } catch (error) {
    const message = (error as Error).message;
    return refusal(classify(message), message);
  }
  if (!profile) return refusal('MALFORMED', 'no profile');
  // node-saml checked the signature of the assertion it returns: read the rest from that XML only.
  const verified = profile.getAssertionXml?.();
  const signedAssertion = verified ? (new DOMParser().parseFromString(verified, 'text/xml') as unknown as Document).documentElement : null;
  const acs = spUrls(connection.id, options.baseUrl).acsUrl;
  const destination = attr(response, 'Destination');
  if (destination !== null && destination !== acs) return refusal('WRONG_RECIPIENT', `Destination ${destination}, expected ${acs}`);
  if (attr(response, 'InResponseTo') !== state.rid) return refusal('REPLAYED', 'InResponseTo is not the request of this browser');
  const confirmations = signedAssertion ? Array.from(signedAssertion.getElementsByTagNameNS(ASSERTION_NS, 'SubjectConfirmationData')) : [];
  if (confirmations.length === 0 || confirmations.some((c) => attr(c, 'Recipient') !== acs)) return refusal('WRONG_RECIPIENT', `Recipient is not ${acs}`);
  const assertionId = attr(signedAssertion, 'ID');
  if (!assertionId) return refusal('MALFORMED', 'the assertion has no ID');
  const notOnOrAfter = confirmations.map((c) => Date.parse(attr(c, 'NotOnOrAfter') ?? '')).find((t) => Number.isFinite(t)) ?? options.now() + 60 * 60_000;
  const first = await spendTokenId(options.data, `saml:${connection.id}:${assertionId}`, 'saml-assertion', notOnOrAfter + SAML_CLOCK_SKEW_MS);
  if (!first) return refusal('REPLAYED', `assertion ${assertionId} was used already`);

  const emailAttr = ['email', 'mail', 'emailAddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress']
    .map((k) => profile[k])
    .find((v) => typeof v === 'string');
  const email = typeof emailAttr === 'string' ? emailAttr : profile.nameIDFormat === EMAIL_FORMAT || /@/.test(profile.nameID) ? profile.nameID : '';
  if (!email) return refusal('NO_EMAIL', 'neither an email NameID nor an email attribute');
  return {
    ok: true,
    email: email.trim().toLowerCase(),
    nameId: profile.nameID,
    staySignedIn: state.ssi,
    returnTo: state.rt,
    sessionIndex: profile.sessionIndex,
  };
}

/** The SP metadata of a connection (entity ID, ACS URL, signing certificate, NameID format). */
export function spMetadata(connection: SamlConnection, baseUrl: string, data: Database, now: () => number): string {
  return samlFor(connection, baseUrl, data, now).generateServiceProviderMetadata(null, connection.settings.spCert);
}
