/**
 * Registration: invite-link prefill (GET /account/register/{code}), register, and 'Resend
 * Activation'. A registered user is inactive until the emailed division activation link is opened.
 */
import type { FastifyPluginAsync } from 'fastify';
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { apiError } from '../errors.js';
import { sendActivationEmail } from '../services/accountFlows.js';
import { randomToken } from '../services/crypto.js';
import { findUserByEmail, normalizeEmail } from '../services/users.js';
import { email as isEmail, meetsPasswordPolicy } from '@frontdoor/validators';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../services/lists.js';
import { authRateLimit, operationRoute } from './operation.js';

/** Characters refused in company and person names (markup and template delimiters). */
export const ILLEGAL_NAME_CHARACTERS = ['<', '>', '"', '\\', '{', '}', '%', ';'];
export const TRIAL_DAYS = 14;
const DAY = 24 * 60 * 60 * 1000;

interface TrialLinkRow {
  code: string;
  status: 'VALID' | 'EXPIRED' | 'USED' | 'REPLACED';
  company_name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  language: string | null;
  sales_representative: string | null;
}

/** ERR_INVITE_* for an unusable link; the message is the sales representative's name (the screen names them). */
function inviteError(link: TrialLinkRow | undefined): { resultCode: string; message?: string; salesRepresentative?: string } | undefined {
  const rep = link?.sales_representative ? { message: link.sales_representative, salesRepresentative: link.sales_representative } : {};
  if (!link) return { resultCode: 'ERR_INVITE_NOT_FOUND' };
  if (link.status === 'VALID') return undefined;
  return { resultCode: `ERR_INVITE_${link.status}`, ...rep };
}

const registration: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const findLink = (code: string) => ctx.db.prepare('SELECT * FROM trial_links WHERE code = ?').get(code) as TrialLinkRow | undefined;

  operationRoute(
    app,
    'registerInvite',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const link = findLink(req.params.trialLinkCode);
      const error = inviteError(link);
      if (error || !link) return error;
      return {
        resultCode: 'SUCCESS',
        ...(link.company_name ? { companyName: link.company_name } : {}),
        ...(link.first_name ? { firstName: link.first_name } : {}),
        ...(link.last_name ? { lastName: link.last_name } : {}),
        ...(link.email ? { email: link.email } : {}),
        ...(link.language ? { language: link.language } : {}),
      };
    },
    { config: authRateLimit(app) },
  );

  operationRoute(
    app,
    'register',
    async (req, reply) => {
      const body = req.body;
      const names = { companyName: body.companyName.trim(), firstName: body.firstName.trim(), lastName: body.lastName.trim() };
      for (const [field, value] of Object.entries(names)) {
        if (!value) return apiError(reply, 400, 'VALIDATION', 'Required', field);
      }
      const codes: Record<keyof typeof names, string> = {
        companyName: 'ILLEGAL_CHARACTERS_COMPANY_NAME',
        firstName: 'ILLEGAL_CHARACTERS_FIRST_NAME',
        lastName: 'ILLEGAL_CHARACTERS_LAST_NAME',
      };
      for (const field of Object.keys(names) as (keyof typeof names)[]) {
        if (ILLEGAL_NAME_CHARACTERS.some((c) => names[field].includes(c))) {
          const list = ILLEGAL_NAME_CHARACTERS.join(' ');
          return { resultCode: codes[field], message: list, illegalCharacters: list };
        }
      }

      // Without an invite link, registration is open only when self-registration is enabled.
      if (body.trialLinkCode === undefined && !ctx.config.selfRegistrationEnabled) return { resultCode: 'SELF_REGISTRATION_DISABLED' };
      let link: TrialLinkRow | undefined;
      if (body.trialLinkCode !== undefined) {
        link = findLink(body.trialLinkCode);
        const error = inviteError(link);
        if (error) return error;
      }
      // An invite locks the email: the link's address wins over whatever was sent.
      const email = normalizeEmail(link?.email ?? body.email);
      if (!isEmail(email)) return apiError(reply, 400, 'VALIDATION', 'Invalid email address', 'email');
      if (!meetsPasswordPolicy(body.password)) return { resultCode: 'INVALID_PASSWORD' };
      if (body.password !== body.passwordConfirm) return { resultCode: 'PASSWORDS_DO_NOT_MATCH' };
      let phone: string | null = null;
      if (body.phone !== undefined && body.phone !== '') {
        if (!isValidPhoneNumber(body.phone)) return apiError(reply, 400, 'VALIDATION', 'Invalid', 'phone');
        phone = parsePhoneNumberFromString(body.phone)?.number ?? null;
      }
      if (findUserByEmail(ctx.db, email)) return { resultCode: 'EMAIL_ALREADY_REGISTERED' };

      const hash = await ctx.passwords.hash(body.password);
      const t = ctx.now();
      const profile = { businessType: body.businessType, teamSize: body.teamSize, products: body.products };
      const user = ctx.db.transaction(() => {
        // Re-checked inside the transaction: two registrations of one email race on the UNIQUE index.
        if (findUserByEmail(ctx.db, email)) return undefined;
        const orgId = (ctx.db.prepare('SELECT COALESCE(MAX(organization_id), 1) + 1 AS id FROM users').get() as { id: number }).id;
        const res = ctx.db
          .prepare(
            `INSERT INTO users (uid, email, first_name, last_name, user_type, state, sysadmin, password_hash, phone,
        mfa_required, trial_expires_at, organization_id, company_name, language, features, registration_profile, created_at, updated_at)
        VALUES (?, ?, ?, ?, 'TECHNICIAN', 'inactive', 1, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            randomToken(16),
            email,
            names.firstName,
            names.lastName,
            hash,
            phone,
            t + TRIAL_DAYS * DAY,
            orgId,
            names.companyName,
            body.language !== undefined && LANGUAGES.includes(body.language) ? body.language : DEFAULT_LANGUAGE,
            JSON.stringify(['helpCenter', 'ticketTimers']),
            JSON.stringify(profile),
            t,
            t,
          );
        if (link) ctx.db.prepare("UPDATE trial_links SET status = 'USED' WHERE code = ?").run(link.code);
        return { id: Number(res.lastInsertRowid), email, company_name: names.companyName };
      })();
      if (!user) return { resultCode: 'EMAIL_ALREADY_REGISTERED' };
      sendActivationEmail(ctx, req, user);
      return { resultCode: 'SUCCESS' };
    },
    { config: authRateLimit(app) },
  );

  operationRoute(
    app,
    'requestActivationEmail',
    async (req, reply) => {
      const email = normalizeEmail(req.body.email);
      if (!email) return apiError(reply, 400, 'EMPTY_FIELD', 'Email field can not be empty', 'email');
      const user = findUserByEmail(ctx.db, email);
      if (!user) return { resultCode: 'USER_NOT_FOUND' };
      if (user.state === 'active') return { resultCode: 'ALREADY_ACTIVATED' };
      if (user.state !== 'inactive') return { resultCode: 'ACCOUNT_NOT_ELIGIBLE' };
      sendActivationEmail(ctx, req, user);
      return { resultCode: 'SUCCESS' };
    },
    { config: authRateLimit(app) },
  );
};
export default registration;
