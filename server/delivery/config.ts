/**
 * Delivery settings from the environment, checked at start like the rest of config.ts: each problem
 * is one line pushed to `problems` (main.ts prints them all and exits 2). docs/server.md lists them.
 *
 * SMTP_URL (smtp:// or smtps://, credentials in the URL or SMTP_USER / SMTP_PASSWORD), MAIL_FROM,
 * SMTP_CA_FILE (a private CA for the relay's certificate); SMS_PROVIDER=twilio with TWILIO_ACCOUNT_SID,
 * TWILIO_AUTH_TOKEN, TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID, TWILIO_API_BASE; DELIVERY_MAX_ATTEMPTS,
 * DELIVERY_LEASE_SECONDS.
 */
import fs from 'node:fs';
import addressparser from 'nodemailer/lib/addressparser';
import { looksLikeEmail } from '../../catalogue/language/patterns.js';
import { E164 } from '../services/lists.js';

export interface SmtpSettings {
  url: string;
  /** Credentials given apart from the URL (SMTP_USER / SMTP_PASSWORD). */
  auth?: { user: string; pass: string } | undefined;
  /** MAIL_FROM: "Name <address>" or an address. */
  from: string;
  /** PEM of the CA that signs the relay's certificate (SMTP_CA_FILE), when it is not a public one. */
  ca?: string | undefined;
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A sender number (E.164) or alphanumeric id … */
  from?: string | undefined;
  /** … or a Messaging Service that picks the sender. */
  messagingServiceSid?: string | undefined;
  /** https://api.twilio.com unless TWILIO_API_BASE says otherwise (a regional edge, a test double). */
  apiBase: string;
}

export interface DeliverySettings {
  smtp?: SmtpSettings | undefined;
  sms?: ({ provider: 'twilio' } & TwilioSettings) | undefined;
  /** Twilio's API base for the tenants' own accounts too (TWILIO_API_BASE; default https://api.twilio.com). */
  twilioApiBase?: string | undefined;
  maxAttempts: number;
  /**
   * How long a worker's claim on a message lasts (default 60 s): after a crash (kill -9), another
   * instance or the restarted one sends the message once the claim has run out.
   */
  leaseMs?: number | undefined;
}

export const TWILIO_API_BASE = 'https://api.twilio.com';
export const SMS_PROVIDERS = ['twilio'] as const;

const set = (env: NodeJS.ProcessEnv, name: string) => env[name] !== undefined && env[name] !== '';

/** A URL shown in a message without its password. */
function shown(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

/** A sender (MAIL_FROM, a tenant's --mail-from): one address, with or without a name. */
export function checkMailFrom(from: string, problems: string[]): void {
  const parsed = addressparser(from, { flatten: true });
  if (parsed.length !== 1 || !looksLikeEmail(parsed[0]?.address))
    problems.push(`MAIL_FROM must be one address, e.g. "Acme sign-in <no-reply@acme.example>", not ${JSON.stringify(from)}.`);
}

function checkSmtp(env: NodeJS.ProcessEnv, problems: string[]): SmtpSettings | undefined {
  const related = ['SMTP_USER', 'SMTP_PASSWORD', 'SMTP_CA_FILE', 'MAIL_FROM'].filter((n) => set(env, n));
  if (!set(env, 'SMTP_URL')) {
    if (related.length)
      problems.push(
        `${related.join(', ')} ${related.length > 1 ? 'are' : 'is'} set but SMTP_URL is not: emails need SMTP_URL=smtp://relay.example.com:587 (or smtps://…:465).`,
      );
    return undefined;
  }
  const raw = env.SMTP_URL as string;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(
      `SMTP_URL must be a URL such as smtp://user:password@relay.example.com:587 or smtps://relay.example.com:465, not ${JSON.stringify(shown(raw))}.`,
    );
    return undefined;
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    problems.push(`SMTP_URL must start with smtp:// (STARTTLS when the relay offers it) or smtps:// (TLS from the start), not ${JSON.stringify(shown(raw))}.`);
    return undefined;
  }
  if (!url.hostname) problems.push(`SMTP_URL names no host: ${JSON.stringify(shown(raw))}.`);
  if (set(env, 'SMTP_USER') !== set(env, 'SMTP_PASSWORD'))
    problems.push('SMTP_USER and SMTP_PASSWORD go together: set both, or put the credentials in SMTP_URL.');
  if (set(env, 'SMTP_USER') && url.username) problems.push('SMTP_URL has credentials and SMTP_USER is set too: keep one of them.');
  const from = env.MAIL_FROM ?? '';
  if (!from) problems.push('MAIL_FROM is required with SMTP_URL: the sender of every email, e.g. MAIL_FROM="Acme sign-in <no-reply@acme.example>".');
  else checkMailFrom(from, problems);
  let ca: string | undefined;
  if (set(env, 'SMTP_CA_FILE')) {
    try {
      ca = fs.readFileSync(env.SMTP_CA_FILE as string, 'utf8');
      if (!ca.includes('-----BEGIN CERTIFICATE-----')) problems.push(`SMTP_CA_FILE ${env.SMTP_CA_FILE} holds no PEM certificate.`);
    } catch (error) {
      problems.push(`SMTP_CA_FILE ${env.SMTP_CA_FILE} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
    }
  }
  return {
    url: raw,
    ...(set(env, 'SMTP_USER') ? { auth: { user: env.SMTP_USER as string, pass: env.SMTP_PASSWORD as string } } : {}),
    from,
    ...(ca ? { ca } : {}),
  };
}

/** TWILIO_API_BASE: a regional edge (or a local test double), for the deployment's account and the tenants' own. */
function checkTwilioApiBase(env: NodeJS.ProcessEnv, problems: string[]): string {
  if (!set(env, 'TWILIO_API_BASE')) return TWILIO_API_BASE;
  try {
    const u = new URL(env.TWILIO_API_BASE as string);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname))) throw new Error('scheme');
    return u.toString().replace(/\/+$/, '');
  } catch {
    problems.push(
      `TWILIO_API_BASE must be an https URL (http only for a local test double), e.g. ${TWILIO_API_BASE}, not ${JSON.stringify(env.TWILIO_API_BASE)}.`,
    );
    return TWILIO_API_BASE;
  }
}

function checkSms(env: NodeJS.ProcessEnv, problems: string[], apiBase: string): DeliverySettings['sms'] {
  const twilioVars = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM', 'TWILIO_MESSAGING_SERVICE_SID'].filter((n) => set(env, n));
  if (!set(env, 'SMS_PROVIDER')) {
    if (twilioVars.length)
      problems.push(`${twilioVars.join(', ')} ${twilioVars.length > 1 ? 'are' : 'is'} set but SMS_PROVIDER is not: add SMS_PROVIDER=twilio to send texts.`);
    return undefined;
  }
  if (env.SMS_PROVIDER !== 'twilio') {
    problems.push(`SMS_PROVIDER must be one of ${SMS_PROVIDERS.join(', ')}, not ${JSON.stringify(env.SMS_PROVIDER)}.`);
    return undefined;
  }
  const sid = env.TWILIO_ACCOUNT_SID ?? '';
  const token = env.TWILIO_AUTH_TOKEN ?? '';
  if (!/^AC[0-9a-fA-F]{32}$/.test(sid))
    problems.push('TWILIO_ACCOUNT_SID must be your Account SID: AC followed by 32 hexadecimal characters (Twilio console, Account Info).');
  if (!token) problems.push('TWILIO_AUTH_TOKEN is required with SMS_PROVIDER=twilio (Twilio console, Account Info).');
  const from = env.TWILIO_FROM || undefined;
  const service = env.TWILIO_MESSAGING_SERVICE_SID || undefined;
  if (!from && !service)
    problems.push('SMS_PROVIDER=twilio needs TWILIO_FROM (a number in international form, +14155550100) or TWILIO_MESSAGING_SERVICE_SID (MG…).');
  if (from && service) problems.push('TWILIO_FROM and TWILIO_MESSAGING_SERVICE_SID are both set: keep one (the Messaging Service picks its own sender).');
  if (from && !E164.test(from) && !/^[A-Za-z0-9 ]{1,11}$/.test(from))
    problems.push(
      `TWILIO_FROM must be a number in international form (+14155550100) or an alphanumeric sender id of up to 11 characters, not ${JSON.stringify(from)}.`,
    );
  if (service && !/^MG[0-9a-fA-F]{32}$/.test(service)) problems.push('TWILIO_MESSAGING_SERVICE_SID must be MG followed by 32 hexadecimal characters.');
  return { provider: 'twilio', accountSid: sid, authToken: token, ...(from ? { from } : {}), ...(service ? { messagingServiceSid: service } : {}), apiBase };
}

export function checkDelivery(env: NodeJS.ProcessEnv, problems: string[]): DeliverySettings {
  let maxAttempts = 8;
  if (set(env, 'DELIVERY_MAX_ATTEMPTS')) {
    const n = Number(env.DELIVERY_MAX_ATTEMPTS);
    if (!/^\d+$/.test(String(env.DELIVERY_MAX_ATTEMPTS).trim()) || n < 1 || n > 50)
      problems.push(`DELIVERY_MAX_ATTEMPTS must be a whole number from 1 to 50, not ${JSON.stringify(env.DELIVERY_MAX_ATTEMPTS)}.`);
    else maxAttempts = n;
  }
  let leaseMs: number | undefined;
  if (set(env, 'DELIVERY_LEASE_SECONDS')) {
    const n = Number(env.DELIVERY_LEASE_SECONDS);
    // Meant to be longer than a send can take (SMTP gives up after 15 s, Twilio after 10 s), at most an hour.
    if (!/^\d+$/.test(String(env.DELIVERY_LEASE_SECONDS).trim()) || n < 1 || n > 3600)
      problems.push(`DELIVERY_LEASE_SECONDS must be a whole number from 1 to 3600, not ${JSON.stringify(env.DELIVERY_LEASE_SECONDS)}.`);
    else leaseMs = n * 1000;
  }
  // TWILIO_API_BASE's own problem after the others of texts (the order an operator reads them in).
  const apiBaseProblems: string[] = [];
  const twilioApiBase = checkTwilioApiBase(env, apiBaseProblems);
  const smtp = checkSmtp(env, problems);
  const sms = checkSms(env, problems, twilioApiBase);
  problems.push(...apiBaseProblems);
  return { smtp, sms, twilioApiBase, maxAttempts, ...(leaseMs ? { leaseMs } : {}) };
}
