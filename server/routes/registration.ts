/**
 * Registration: invite-link prefill (GET /account/register/{code}), register, and 'Resend
 * Activation'. A registered user is inactive until the emailed division activation link is opened and
 * the person proves who they are (routes/activation.ts activateAccount). Trial-link codes are stored
 * as sha256; unknown ones count against the address like every other code. Emails are budgeted and
 * the bot check is demanded under load (services/mail.ts).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { isUniqueViolation, type Queryable } from '../db/data.js';
import { apiError, rateLimited } from '../errors.js';
import { activationMail, countUnknownCode, sendActivationEmail, unknownCodesBlocked } from '../services/accountFlows.js';
import { randomToken, sha256 } from '../crypto/primitives.js';
import { checkSettled, passMailGate, reserveMail } from '../services/mail.js';
import { findUserByEmail, normalizeEmail } from '../services/users.js';
import { email as isEmail, meetsPasswordPolicy } from '@frontdoor/validators';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../services/lists.js';
import { authRateLimit, operationRoute } from './operation.js';

/** Characters refused in company and person names (markup and template delimiters). */
export const ILLEGAL_NAME_CHARACTERS = ['<', '>', '"', '\\', '{', '}', '%', ';'];
export const TRIAL_DAYS = 14;
const DAY = 24 * 60 * 60 * 1000;

interface TrialLinkRow {
  code_hash: string;
  status: 'VALID' | 'EXPIRED' | 'USED' | 'REPLACED';
  company_name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  language: string | null;
  sales_representative: string | null;
}

/**
 * ERR_INVITE_* for an unusable link; the message is the sales representative's name (SPEC §8: the
 * screen names them, so the link's holder knows whom to ask for a new link). Decision (issue 24): the
 * representative's name (a work contact, never their email) is given for an expired, used or replaced
 * link, which only its holder can present (codes are long, hashed, and unknown ones are limited per
 * address); an unknown link gets nothing; the invitee's own data (name, email, company) only to a
 * valid link, and a link keeps none of it once used.
 */
function inviteError(link: TrialLinkRow | undefined): { resultCode: string; message?: string; salesRepresentative?: string } | undefined {
  const rep = link?.sales_representative ? { message: link.sales_representative, salesRepresentative: link.sales_representative } : {};
  if (!link) return { resultCode: 'ERR_INVITE_NOT_FOUND' };
  if (link.status === 'VALID') return undefined;
  return { resultCode: `ERR_INVITE_${link.status}`, ...rep };
}

const registration: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  /** The link of a code, counting an unknown one against the address; a number: the address must wait that many seconds. */
  const lookUpLink = async (req: FastifyRequest, code: string): Promise<TrialLinkRow | undefined | number> => {
    const blocked = await unknownCodesBlocked(ctx, req);
    if (blocked) return blocked;
    const link = await ctx.data.get<TrialLinkRow>('SELECT * FROM trial_links WHERE code_hash = ?', [sha256(code)]);
    if (!link) await countUnknownCode(ctx, req);
    return link;
  };

  operationRoute(
    app,
    'registerInvite',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const link = await lookUpLink(req, req.params.trialLinkCode);
      if (typeof link === 'number') return rateLimited(reply, link, 'Too many wrong codes');
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
      // Under load the bot check is demanded (a script pays the work for every account and email).
      if (!(await passMailGate(ctx, req, 'register', body.recaptchaToken))) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
      let link: TrialLinkRow | undefined;
      if (body.trialLinkCode !== undefined) {
        const found = await lookUpLink(req, body.trialLinkCode);
        if (typeof found === 'number') return rateLimited(reply, found, 'Too many wrong codes');
        link = found;
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
      if (await findUserByEmail(ctx.data, email)) return { resultCode: 'EMAIL_ALREADY_REGISTERED' };
      // The activation email has a budget per address: a third party's inbox is not flooded, and no
      // account is made without its email.
      const mail = await reserveMail(ctx, null, email);
      if (!mail.sent) return rateLimited(reply, mail.retryAfter, 'Too many emails to this address');

      const hash = await ctx.passwords.hash(body.password);
      const t = ctx.now();
      const language = body.language !== undefined && LANGUAGES.includes(body.language) ? body.language : DEFAULT_LANGUAGE;
      const profile = { businessType: body.businessType, teamSize: body.teamSize, products: body.products };
      const create = async (q: Queryable) => {
        // Re-checked inside the transaction: two registrations of one email race on the UNIQUE index.
        if (await findUserByEmail(q, email)) return undefined;
        const orgId = (await q.get<{ id: number }>('SELECT COALESCE(MAX(organization_id), 1) + 1 AS id FROM users'))?.id ?? 2;
        const created = await q.get<{ id: number }>(
          `INSERT INTO users (uid, email, first_name, last_name, user_type, state, sysadmin, password_hash, phone,
        mfa_required, trial_expires_at, organization_id, company_name, language, features, registration_profile, created_at, updated_at)
        VALUES (?, ?, ?, ?, 'TECHNICIAN', 'inactive', 1, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          [
            randomToken(16),
            email,
            names.firstName,
            names.lastName,
            hash,
            phone,
            t + TRIAL_DAYS * DAY,
            orgId,
            names.companyName,
            language,
            JSON.stringify(['helpCenter', 'ticketTimers']),
            JSON.stringify(profile),
            t,
            t,
          ],
        );
        if (!created) throw new Error('users insert returned no id');
        // Used: the link keeps no invitee data (its holder sees the representative's name only).
        if (link) {
          await q.run(
            "UPDATE trial_links SET status = 'USED', company_name = NULL, first_name = NULL, last_name = NULL, email = NULL, language = NULL WHERE code_hash = ?",
            [link.code_hash],
          );
        }
        const user = { id: created.id, email, company_name: names.companyName, language };
        // The account, its activation key and the email that carries it commit together (or none of them).
        await ctx.outbox.send(q, { channel: 'email', ...(await activationMail(ctx, q, req, user, 'registration')) });
        return user;
      };
      let user: { id: number } | undefined;
      try {
        user = await ctx.data.tx(create);
      } catch (error) {
        // The other registration of this address committed first (the UNIQUE index caught the race).
        if (!isUniqueViolation(error)) throw error;
      }
      if (!user) return { resultCode: 'EMAIL_ALREADY_REGISTERED' };
      return checkSettled(body.recaptchaToken, { resultCode: 'SUCCESS' });
    },
    { config: authRateLimit(app) },
  );

  operationRoute(
    app,
    'requestActivationEmail',
    async (req, reply) => {
      const email = normalizeEmail(req.body.email);
      if (!email) return apiError(reply, 400, 'EMPTY_FIELD', 'Email field can not be empty', 'email');
      if (!(await passMailGate(ctx, req, 'requestActivationEmail', req.body.recaptchaToken)))
        return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
      const user = await findUserByEmail(ctx.data, email);
      if (!user) return { resultCode: 'USER_NOT_FOUND' };
      if (user.state === 'active') return { resultCode: 'ALREADY_ACTIVATED' };
      if (user.state !== 'inactive') return { resultCode: 'ACCOUNT_NOT_ELIGIBLE' };
      // The live key is sent again (40 requests no longer make 40 live keys), within the mail budget.
      const sent = await sendActivationEmail(ctx, req, user);
      if (!sent.sent) return rateLimited(reply, sent.retryAfter, 'Too many emails');
      return checkSettled(req.body.recaptchaToken, { resultCode: 'SUCCESS' });
    },
    { config: authRateLimit(app) },
  );
};
export default registration;
