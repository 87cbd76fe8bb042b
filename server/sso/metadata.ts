/**
 * Reads an IdP's SAML metadata (what Okta, Entra ID, ADFS or the demo IdP publish): its entity ID,
 * the single sign-on URL of the HTTP-Redirect binding, and its signing certificates. Used by
 * `npm run admin -- sso-add-saml --idp-metadata-file`.
 */
import { DOMParser } from '@xmldom/xmldom';
import { certPem } from './keys.js';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  certs: string[];
}

export function parseIdpMetadata(xml: string): IdpMetadata {
  const problems: string[] = [];
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: (m: string) => problems.push(m), fatalError: (m: string) => problems.push(m) },
  }).parseFromString(xml, 'text/xml');
  const entity = doc.documentElement;
  if (problems.length || !entity || entity.localName !== 'EntityDescriptor' || entity.namespaceURI !== MD)
    throw new Error('not SAML metadata (an md:EntityDescriptor)');
  const idp = entity.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!idp) throw new Error('the metadata describes no identity provider (IDPSSODescriptor)');
  const sso = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService')).find((s) => s.getAttribute('Binding') === REDIRECT);
  if (!sso?.getAttribute('Location')) throw new Error('the identity provider offers no HTTP-Redirect single sign-on service');
  const certs = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((k) => !k.getAttribute('use') || k.getAttribute('use') === 'signing')
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS, 'X509Certificate')))
    .map((c) => certPem(c.textContent ?? ''));
  if (certs.length === 0) throw new Error('the metadata has no signing certificate');
  return { entityId: entity.getAttribute('entityID') ?? '', ssoUrl: sso.getAttribute('Location') as string, certs };
}
