/**
 * Single sign-on connections per tenant (table sso_connections, migration 021), on the async data
 * layer. A connection is SAML 2.0 (the IdP's entity ID, SSO URL and signing certificates; our SP
 * signing key and certificate) or OpenID Connect (issuer, client ID and secret). Private values are
 * sealed (AES-GCM with the data key of APP_SECRET, security/secrets.ts) before they are written.
 * Users sign in through the connection their users.sso_connection_id names.
 */
import type { Queryable } from '../db/data.js';
import { isUniqueViolation } from '../db/data.js';
import {
  assignUsers,
  connectionRow,
  connectionRows,
  deleteConnection,
  insertConnection,
  ssoUser,
  updateConnectionSettings,
  type ConnectionRow as Row,
  type SsoUserRow,
} from '../db/ssoConnections.js';

export interface SamlSettings {
  /** The IdP's entity ID (the Issuer of its responses). */
  idpEntityId: string;
  /** The IdP's single sign-on URL for the HTTP-Redirect binding. */
  idpSsoUrl: string;
  /** The IdP's signing certificates (PEM); several while the IdP rolls its key over. */
  idpCerts: string[];
  /** Our SP signing certificate (PEM), published in the SP metadata. */
  spCert: string;
}
export interface SamlSecrets {
  spPrivateKey: string;
}
export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Space-separated scopes (default "openid email profile"). */
  scopes?: string | undefined;
  /**
   * Sign in with an email the provider has not marked verified (email_verified false or missing).
   * Default: refused. Only for a provider that never sends the claim and whose tenant controls its
   * users' addresses (sso-set-oidc --email-verified waived).
   */
  acceptUnverifiedEmail?: boolean | undefined;
}
export interface OidcSecrets {
  clientSecret: string;
}

interface Common {
  id: number;
  organizationId: number;
  name: string;
  enabled: boolean;
}
export type SamlConnection = Common & { protocol: 'saml'; settings: SamlSettings; secrets: SamlSecrets };
export type OidcConnection = Common & { protocol: 'oidc'; settings: OidcSettings; secrets: OidcSecrets };
export type SsoConnection = SamlConnection | OidcConnection;

export type NewConnection =
  | { protocol: 'saml'; organizationId: number; name: string; settings: SamlSettings; secrets: SamlSecrets }
  | { protocol: 'oidc'; organizationId: number; name: string; settings: OidcSettings; secrets: OidcSecrets };

export interface Sealer {
  seal(plain: string): string;
  unseal(stored: string): string;
}

export class ConnectionError extends Error {
  constructor(
    message: string,
    readonly kind: 'conflict' | 'missing',
  ) {
    super(message);
    this.name = 'ConnectionError';
  }
}

function fromRow(row: Row, sealer: Sealer | undefined): SsoConnection {
  const secrets = sealer && row.secrets ? (JSON.parse(sealer.unseal(row.secrets)) as SamlSecrets & OidcSecrets) : ({} as SamlSecrets & OidcSecrets);
  const common = { id: row.id, organizationId: row.organization_id, name: row.name, enabled: row.is_enabled === 1 };
  return row.protocol === 'saml'
    ? { ...common, protocol: 'saml', settings: JSON.parse(row.settings) as SamlSettings, secrets }
    : { ...common, protocol: 'oidc', settings: JSON.parse(row.settings) as OidcSettings, secrets };
}

export async function addConnection(t: Queryable, input: NewConnection, sealer: Sealer, now: number): Promise<number> {
  try {
    const row = {
      organizationId: input.organizationId,
      protocol: input.protocol,
      name: input.name,
      settingsJson: JSON.stringify(input.settings),
      sealedSecrets: sealer.seal(JSON.stringify(input.secrets)),
    };
    return await insertConnection(t, row, now);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConnectionError(`organisation ${input.organizationId} has a connection named "${input.name}" already`, 'conflict');
    throw error;
  }
}

/** A connection with its secrets (sealer given) or without (listing). */
export async function getConnection(q: Queryable, id: number, sealer?: Sealer): Promise<SsoConnection | undefined> {
  const row = await connectionRow(q, id);
  return row && fromRow(row, sealer);
}

export async function listConnections(q: Queryable, organizationId?: number): Promise<Array<SsoConnection & { users: number }>> {
  const rows = await connectionRows(q, organizationId);
  return rows.map((r) => ({ ...fromRow(r, undefined), users: r.users }));
}

/** Removes a connection; its users go back to passwords (sso_state NONE). Returns how many users that was. */
export async function removeConnection(t: Queryable, id: number, now: number): Promise<number> {
  const users = await deleteConnection(t, id, now);
  if (users === undefined) throw new ConnectionError(`no SSO connection ${id}`, 'missing');
  return users;
}

/**
 * Points users of the connection's organisation at it: one (by email) or all. They then see
 * authState SSO with the connection's name as idpName. Returns how many users changed.
 */
export async function assignConnection(t: Queryable, id: number, who: { email: string } | { all: true }, now: number): Promise<number> {
  const connection = await getConnection(t, id);
  if (!connection) throw new ConnectionError(`no SSO connection ${id}`, 'missing');
  const changes = await assignUsers(t, connection, 'email' in who ? who.email : undefined, now);
  if ('email' in who && changes === 0) throw new ConnectionError(`no user ${who.email} in organisation ${connection.organizationId}`, 'missing');
  return changes;
}

/** Whether an OpenID Connect connection requires email_verified (the default) or waives it. Returns the new settings. */
export async function setEmailVerifiedRule(t: Queryable, id: number, rule: 'required' | 'waived', now: number): Promise<OidcSettings> {
  const connection = await getConnection(t, id);
  if (!connection) throw new ConnectionError(`no SSO connection ${id}`, 'missing');
  if (connection.protocol !== 'oidc') throw new ConnectionError(`connection ${id} is SAML: email_verified is an OpenID Connect claim`, 'conflict');
  const { acceptUnverifiedEmail: _previous, ...rest } = connection.settings;
  const settings: OidcSettings = rule === 'waived' ? { ...rest, acceptUnverifiedEmail: true } : rest;
  await updateConnectionSettings(t, id, JSON.stringify(settings), now);
  return settings;
}

export type SsoUser = SsoUserRow;

/**
 * The account an IdP vouched for: the user with that email who belongs to this connection (never a
 * user of another tenant or another connection, whatever the IdP asserts). undefined: refuse.
 */
export async function userForIdentity(q: Queryable, connection: Pick<SsoConnection, 'id' | 'organizationId'>, email: string): Promise<SsoUser | undefined> {
  return ssoUser(q, connection, email.trim());
}
