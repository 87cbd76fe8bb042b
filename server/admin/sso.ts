/**
 * `npm run admin -- sso-…`: single sign-on connections of a tenant (server/sso/connections.ts).
 * sso-add-saml takes the IdP's metadata file (or its entity ID, SSO URL and certificate), makes the SP
 * signing key pair unless one is given, and prints what the IdP's administrator needs (entity ID,
 * ACS URL, metadata URL). sso-add-oidc takes the issuer, client ID and secret (stdin) and prints the
 * redirect URI; an OpenID provider's email must be verified (email_verified true) unless the connection
 * waives it (--email-verified waived, at sso-add-oidc or later with sso-set-oidc). Private values are sealed with the data key of APP_SECRET (the demo's generated secret
 * when the database has one), so the server can read them and a database dump cannot.
 */
import fs from 'node:fs';
import { ConfigError, parsePublicUrl } from '../config.js';
import type { Queryable } from '../db/data.js';
import { DEMO_APP_SECRET, readServerSecret } from '../db/serverSecrets.js';
import { organizationExists } from '../db/tenants.js';
import { sealerFromSecrets } from '../security/secrets.js';
import {
  addConnection,
  assignConnection,
  ConnectionError,
  listConnections,
  removeConnection,
  setEmailVerifiedRule,
  type NewConnection,
  type Sealer,
} from '../sso/connections.js';
import { describeCert, newSigningKeyPair } from '../sso/keys.js';
import { parseIdpMetadata } from '../sso/metadata.js';
import { oidcCallbackUrl } from '../sso/oidc.js';
import { spUrls } from '../sso/saml.js';
import { AdminError, EXIT, type AdminCommand, type AdminContext } from './commands.js';

const usage = (message: string) => new AdminError(message, EXIT.usage);

type Values = Record<string, string | boolean | undefined>;
const str = (values: Values, name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);

/** The sealer of the server: APP_SECRET (and APP_SECRET_PREVIOUS while rotating), else the demo secret kept in the database. */
export async function sealerFor(ctx: AdminContext): Promise<Sealer> {
  let master = ctx.env?.APP_SECRET || undefined;
  master ??= await readServerSecret(ctx.db, DEMO_APP_SECRET);
  if (!master) throw usage('APP_SECRET is required: SSO keys and client secrets are stored encrypted with it (use the same value as the server)');
  return sealerFromSecrets(master, ctx.env?.APP_SECRET_PREVIOUS || undefined);
}

function baseUrl(ctx: AdminContext, values: Values): string {
  try {
    return parsePublicUrl(str(values, 'public-url') ?? ctx.env?.PUBLIC_URL ?? 'http://localhost:8080', '--public-url');
  } catch (error) {
    if (error instanceof ConfigError) throw usage(error.message);
    throw error;
  }
}

function organization(values: Values): number {
  const raw = str(values, 'organization');
  if (!raw || !/^\d+$/.test(raw)) throw usage('--organization is required: the organisation number create-tenant printed');
  return Number(raw);
}

function connectionId(values: Values): number {
  const raw = str(values, 'connection');
  if (!raw || !/^\d+$/.test(raw)) throw usage('--connection is required: the connection number sso-list prints');
  return Number(raw);
}

/** --email-verified: required (the default) or waived. */
function emailVerifiedRule(values: Values, needed: boolean): 'required' | 'waived' | undefined {
  const raw = str(values, 'email-verified');
  if (raw === undefined && !needed) return undefined;
  if (raw !== 'required' && raw !== 'waived')
    throw usage(
      "--email-verified takes required (the provider must say email_verified: true) or waived (for a provider that never sends the claim, whose tenant controls its users' addresses)",
    );
  return raw;
}

function name(values: Values): string {
  const n = str(values, 'name')?.trim() ?? '';
  if (!n || n.length > 100) throw usage('--name is required: what visitors read on the button (Sign in with …), 1 to 100 characters');
  return n;
}

function readFile(path: string, flag: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (error) {
    throw usage(`${flag} ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

function checkCert(pem: string, flag: string): string {
  try {
    describeCert(pem);
    return pem;
  } catch {
    throw usage(`${flag} is not a PEM certificate`);
  }
}

async function orgExists(q: Queryable, id: number): Promise<void> {
  if (!(await organizationExists(q, id))) throw new AdminError(`there is no organisation ${id} (create-tenant makes one)`, EXIT.conflict);
}

function mapped<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    if (error instanceof ConnectionError) throw new AdminError(error.message, EXIT.conflict);
    throw error;
  });
}

/** Adds the connection to its organisation, which must exist, in one transaction; the new connection's number. */
async function addToOrganization(ctx: AdminContext, input: NewConnection): Promise<number> {
  const sealer = await sealerFor(ctx);
  return mapped(
    ctx.db.tx(async (t) => {
      await orgExists(t, input.organizationId);
      return addConnection(t, input, sealer, ctx.now());
    }),
  );
}

/** An https URL, or plain http to this machine (a local IdP while trying things out). */
function httpsOrLoopback(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(url.hostname));
  } catch {
    return false;
  }
}

export async function addSaml(ctx: AdminContext, values: Values, out: (line: string) => void): Promise<void> {
  const org = organization(values);
  const label = name(values);
  let idp: { entityId: string; ssoUrl: string; certs: string[] };
  const metadataFile = str(values, 'idp-metadata-file');
  if (metadataFile) {
    try {
      idp = parseIdpMetadata(readFile(metadataFile, '--idp-metadata-file'));
    } catch (error) {
      if (error instanceof AdminError) throw error;
      throw usage(`--idp-metadata-file: ${(error as Error).message}`);
    }
  } else {
    const entityId = str(values, 'idp-entity-id');
    const ssoUrl = str(values, 'idp-sso-url');
    const certFile = str(values, 'idp-cert-file');
    if (!entityId || !ssoUrl || !certFile) throw usage('give --idp-metadata-file, or all of --idp-entity-id, --idp-sso-url and --idp-cert-file');
    if (!httpsOrLoopback(ssoUrl)) throw usage('--idp-sso-url must be an https URL');
    idp = { entityId, ssoUrl, certs: [checkCert(readFile(certFile, '--idp-cert-file'), '--idp-cert-file')] };
  }
  const keyFile = str(values, 'sp-key-file');
  const certFile = str(values, 'sp-cert-file');
  if (Boolean(keyFile) !== Boolean(certFile)) throw usage('--sp-key-file and --sp-cert-file go together (or give neither: a key pair is made)');
  const base = baseUrl(ctx, values);
  const sp =
    keyFile && certFile
      ? { privateKey: readFile(keyFile, '--sp-key-file'), cert: checkCert(readFile(certFile, '--sp-cert-file'), '--sp-cert-file') }
      : await newSigningKeyPair(`${label} SSO (Front Door SP)`);
  const id = await addToOrganization(ctx, {
    protocol: 'saml',
    organizationId: org,
    name: label,
    settings: { idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, idpCerts: idp.certs, spCert: sp.cert },
    secrets: { spPrivateKey: sp.privateKey },
  });
  const urls = spUrls(id, base);
  out(`SAML connection ${id} "${label}" added to organisation ${org} (IdP ${idp.entityId})`);
  out(`  give the IdP's administrator the SP metadata: ${urls.metadataUrl}`);
  out(`  or: entity ID ${urls.entityId}, ACS URL (HTTP-POST) ${urls.acsUrl}, NameID format emailAddress, sign assertions`);
  out(`  then: npm run admin -- sso-assign --connection ${id} --all   (or --email one@…)`);
}

async function readSecretFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export async function addOidc(ctx: AdminContext, values: Values, out: (line: string) => void, readSecret = readSecretFromStdin): Promise<void> {
  const org = organization(values);
  const label = name(values);
  const issuer = str(values, 'issuer') ?? '';
  if (!httpsOrLoopback(issuer)) throw usage('--issuer must be the https URL of the OpenID provider (its /.well-known/openid-configuration lives below it)');
  const clientId = str(values, 'client-id');
  if (!clientId) throw usage('--client-id is required (the OpenID provider gives it when the application is registered)');
  if (!values['client-secret-stdin'])
    throw usage('--client-secret-stdin is required: the client secret is read from standard input, never from the command line');
  const clientSecret = (await readSecret()).trim();
  if (!clientSecret) throw usage('the client secret on standard input is empty');
  const scopes = str(values, 'scopes');
  const waived = emailVerifiedRule(values, false) === 'waived';
  const base = baseUrl(ctx, values);
  const id = await addToOrganization(ctx, {
    protocol: 'oidc',
    organizationId: org,
    name: label,
    settings: { issuer: issuer.replace(/\/+$/, ''), clientId, ...(scopes ? { scopes } : {}), ...(waived ? { acceptUnverifiedEmail: true } : {}) },
    secrets: { clientSecret },
  });
  out(`OpenID Connect connection ${id} "${label}" added to organisation ${org} (issuer ${issuer})`);
  out(
    waived
      ? '  email_verified: waived (an unverified or unmarked email signs in)'
      : `  email_verified: required (for a provider that never sends it: npm run admin -- sso-set-oidc --connection ${id} --email-verified waived)`,
  );
  out(`  register this redirect URI at the provider: ${oidcCallbackUrl(id, base)}`);
  out(`  then: npm run admin -- sso-assign --connection ${id} --all   (or --email one@…)`);
}

export async function listSso(ctx: AdminContext, values: Values, out: (line: string) => void): Promise<void> {
  const org = str(values, 'organization') !== undefined ? organization(values) : undefined;
  const base = baseUrl(ctx, values);
  const rows = await listConnections(ctx.db, org);
  if (rows.length === 0) out('no SSO connections');
  for (const c of rows) {
    const where =
      c.protocol === 'saml'
        ? `IdP ${c.settings.idpEntityId}; SP metadata ${spUrls(c.id, base).metadataUrl}`
        : `issuer ${c.settings.issuer}; redirect URI ${oidcCallbackUrl(c.id, base)}${c.settings.acceptUnverifiedEmail ? '; email_verified waived' : ''}`;
    out(`${c.id}\t${c.protocol}\torganisation ${c.organizationId}\t"${c.name}"\t${c.users} user(s)${c.enabled ? '' : '\tdisabled'}\t${where}`);
  }
}

export async function assignSso(ctx: AdminContext, values: Values, out: (line: string) => void): Promise<void> {
  const id = connectionId(values);
  const email = str(values, 'email');
  if (!email === !values.all) throw usage("give --email <one user> or --all (every user of the connection's organisation)");
  const n = await mapped(ctx.db.tx((t) => assignConnection(t, id, email ? { email: email.trim().toLowerCase() } : { all: true }, ctx.now())));
  out(`${n} user(s) now sign in through connection ${id}`);
}

export async function removeSso(ctx: AdminContext, values: Values, out: (line: string) => void): Promise<void> {
  const id = connectionId(values);
  const n = await mapped(ctx.db.tx((t) => removeConnection(t, id, ctx.now())));
  out(`connection ${id} removed; ${n} user(s) sign in with a password again (they may need a reset link)`);
}

export async function setOidc(ctx: AdminContext, values: Values, out: (line: string) => void): Promise<void> {
  const id = connectionId(values);
  const rule = emailVerifiedRule(values, true) ?? 'required';
  await mapped(ctx.db.tx((t) => setEmailVerifiedRule(t, id, rule, ctx.now())));
  out(
    rule === 'waived'
      ? `connection ${id}: email_verified waived (the provider's email signs in whether or not it says it is verified)`
      : `connection ${id}: email_verified required (an email the provider does not mark verified is refused)`,
  );
}

/** The commands as main.ts lists them. */
export const SSO_COMMANDS = {
  'sso-add-saml': {
    summary: 'a SAML 2.0 single sign-on connection of an organisation (prints the SP metadata URL)',
    usage:
      'sso-add-saml --organization <number> --name <shown name> (--idp-metadata-file idp.xml | --idp-entity-id … --idp-sso-url https://… --idp-cert-file idp.pem)\n' +
      '             [--sp-key-file sp.key --sp-cert-file sp.pem] [--public-url https://signin.acme.com]',
    options: {
      organization: { type: 'string' },
      name: { type: 'string' },
      'idp-metadata-file': { type: 'string' },
      'idp-entity-id': { type: 'string' },
      'idp-sso-url': { type: 'string' },
      'idp-cert-file': { type: 'string' },
      'sp-key-file': { type: 'string' },
      'sp-cert-file': { type: 'string' },
      'public-url': { type: 'string' },
    },
    run: addSaml,
  },
  'sso-add-oidc': {
    summary: 'an OpenID Connect single sign-on connection of an organisation (client secret on stdin)',
    usage:
      'sso-add-oidc --organization <number> --name <shown name> --issuer https://… --client-id <id> --client-secret-stdin [--scopes "openid email profile"]\n' +
      '             [--email-verified required|waived] [--public-url …]',
    options: {
      organization: { type: 'string' },
      name: { type: 'string' },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-stdin': { type: 'boolean' },
      scopes: { type: 'string' },
      'email-verified': { type: 'string' },
      'public-url': { type: 'string' },
    },
    run: (ctx: AdminContext, values: Values, out: (line: string) => void) => addOidc(ctx, values, out),
  },
  'sso-set-oidc': {
    summary: "an OpenID Connect connection's rule for email_verified: required (the default) or waived",
    usage: 'sso-set-oidc --connection <number> --email-verified required|waived',
    options: { connection: { type: 'string' }, 'email-verified': { type: 'string' } },
    run: setOidc,
  },
  'sso-list': {
    summary: 'the SSO connections (of one organisation with --organization)',
    usage: 'sso-list [--organization <number>] [--public-url …]',
    options: { organization: { type: 'string' }, 'public-url': { type: 'string' } },
    run: listSso,
  },
  'sso-assign': {
    summary: 'let one user (--email) or all users (--all) of its organisation sign in through a connection',
    usage: 'sso-assign --connection <number> (--email <email> | --all)',
    options: { connection: { type: 'string' }, email: { type: 'string' }, all: { type: 'boolean' } },
    run: assignSso,
  },
  'sso-remove': {
    summary: 'remove a connection; its users go back to passwords',
    usage: 'sso-remove --connection <number>',
    options: { connection: { type: 'string' } },
    run: removeSso,
  },
} satisfies Record<string, AdminCommand>;
