/**
 * Registration: invite-link prefill (GET /account/register/{code}), register, and 'Resend
 * Activation'. A registered user is inactive until the emailed division activation link is opened and
 * the person proves who they are (routes/activation.ts activateAccount). Trial-link codes are stored
 * as sha256; unknown ones count against the address like every other code. Emails are budgeted and
 * the bot check is demanded under load (services/mail.ts). The account is services/registration.ts's.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { email as isEmail, meetsPasswordPolicy } from '@frontdoor/validators';
import type { AppContext } from '../context.js';
import { findUserByEmail, normalizeEmail } from '../db/accounts.js';
import type { TrialLinkRow } from '../db/accountFlows.js';
import { apiError, rateLimited } from '../errors.js';
import { sendActivationEmail } from '../services/accountFlows.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../services/lists.js';
import { checkSettled, passMailGate, reserveMail } from '../services/mail.js';
import { lookUpTrialLink, registerAccount } from '../services/registration.js';
import { authRateLimit, operationRoute, type OperationRequest } from './operation.js';

/** Characters refused in company and person names (markup and template delimiters). */
export const ILLEGAL_NAME_CHARACTERS = ['<', '>', '"', '\\', '{', '}', '%', ';'];

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

async function registerInvite(ctx: AppContext, req: OperationRequest<'registerInvite'>, reply: FastifyReply) {
  reply.header('Cache-Control', 'no-store');
  const link = await lookUpTrialLink(ctx, req, req.params.trialLinkCode);
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
}

type RegisterBody = OperationRequest<'register'>['body'];
type Names = { companyName: string; firstName: string; lastName: string };

const ILLEGAL_CHARACTER_CODES: Record<keyof Names, string> = {
  companyName: 'ILLEGAL_CHARACTERS_COMPANY_NAME',
  firstName: 'ILLEGAL_CHARACTERS_FIRST_NAME',
  lastName: 'ILLEGAL_CHARACTERS_LAST_NAME',
};

/** The trimmed names, or the answer that refuses them (an empty one, a refused character). */
function checkNames(body: RegisterBody, reply: FastifyReply): { names: Names } | { refused: unknown } {
  const names = { companyName: body.companyName.trim(), firstName: body.firstName.trim(), lastName: body.lastName.trim() };
  for (const [field, value] of Object.entries(names)) {
    if (!value) return { refused: apiError(reply, 400, 'VALIDATION', 'Required', field) };
  }
  for (const field of Object.keys(names) as (keyof Names)[]) {
    if (ILLEGAL_NAME_CHARACTERS.some((c) => names[field].includes(c))) {
      const list = ILLEGAL_NAME_CHARACTERS.join(' ');
      return { refused: { resultCode: ILLEGAL_CHARACTER_CODES[field], message: list, illegalCharacters: list } };
    }
  }
  return { names };
}

/** The email (an invite's wins), password and phone, or the answer that refuses them. */
function checkCredentials(
  body: RegisterBody,
  link: TrialLinkRow | undefined,
  reply: FastifyReply,
): { email: string; phone: string | null } | { refused: unknown } {
  // An invite locks the email: the link's address wins over whatever was sent.
  const email = normalizeEmail(link?.email ?? body.email);
  if (!isEmail(email)) return { refused: apiError(reply, 400, 'VALIDATION', 'Invalid email address', 'email') };
  if (!meetsPasswordPolicy(body.password)) return { refused: { resultCode: 'INVALID_PASSWORD' } };
  if (body.password !== body.passwordConfirm) return { refused: { resultCode: 'PASSWORDS_DO_NOT_MATCH' } };
  if (body.phone === undefined || body.phone === '') return { email, phone: null };
  if (!isValidPhoneNumber(body.phone)) return { refused: apiError(reply, 400, 'VALIDATION', 'Invalid', 'phone') };
  return { email, phone: parsePhoneNumberFromString(body.phone)?.number ?? null };
}

/** The trial link the registration names, or the answer that refuses it (none named: undefined link). */
async function invitedBy(
  ctx: AppContext,
  req: OperationRequest<'register'>,
  reply: FastifyReply,
): Promise<{ link: TrialLinkRow | undefined } | { refused: unknown }> {
  if (req.body.trialLinkCode === undefined) return { link: undefined };
  const found = await lookUpTrialLink(ctx, req, req.body.trialLinkCode);
  if (typeof found === 'number') return { refused: rateLimited(reply, found, 'Too many wrong codes') };
  const error = inviteError(found);
  return error ? { refused: error } : { link: found };
}

async function register(ctx: AppContext, req: OperationRequest<'register'>, reply: FastifyReply) {
  const body = req.body;
  const named = checkNames(body, reply);
  if ('refused' in named) return named.refused;
  // Without an invite link, registration is open only when self-registration is enabled.
  if (body.trialLinkCode === undefined && !ctx.config.selfRegistrationEnabled) return { resultCode: 'SELF_REGISTRATION_DISABLED' };
  // Under load the bot check is demanded (a script pays the work for every account and email).
  if (!(await passMailGate(ctx, req, 'register', body.recaptchaToken))) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
  const invited = await invitedBy(ctx, req, reply);
  if ('refused' in invited) return invited.refused;
  const given = checkCredentials(body, invited.link, reply);
  if ('refused' in given) return given.refused;
  if (await findUserByEmail(ctx.data, given.email)) return { resultCode: 'EMAIL_ALREADY_REGISTERED' };
  // The activation email has a budget per address: a third party's inbox is not flooded, and no
  // account is made without its email.
  const mail = await reserveMail(ctx, null, given.email);
  if (!mail.sent) return rateLimited(reply, mail.retryAfter, 'Too many emails to this address');
  const created = await registerAccount(ctx, req, {
    ...given,
    names: named.names,
    passwordHash: await ctx.passwords.hash(body.password),
    language: body.language !== undefined && LANGUAGES.includes(body.language) ? body.language : DEFAULT_LANGUAGE,
    profile: { businessType: body.businessType, teamSize: body.teamSize, products: body.products },
    link: invited.link,
  });
  if (created === undefined) return { resultCode: 'EMAIL_ALREADY_REGISTERED' };
  return checkSettled(body.recaptchaToken, { resultCode: 'SUCCESS' });
}

async function requestActivationEmail(ctx: AppContext, req: OperationRequest<'requestActivationEmail'>, reply: FastifyReply) {
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
}

const registration: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };
  operationRoute(app, 'registerInvite', (req, reply) => registerInvite(ctx, req, reply), limited);
  operationRoute(app, 'register', (req, reply) => register(ctx, req, reply), limited);
  operationRoute(app, 'requestActivationEmail', (req, reply) => requestActivationEmail(ctx, req, reply), limited);
};
export default registration;
