/** The demo IdP's sign-in request (saml-init for a user without a connection, demo mode; /dev/idp reads it). */
export const IDP_REQUEST_TTL_MS = 5 * 60 * 1000;
export const IDP_REQUEST_PURPOSE = 'idp-request';
