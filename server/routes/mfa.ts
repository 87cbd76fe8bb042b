/**
 * Second factor at sign-in (mfa-login, u2f-login, switch-mfa) and MFA setup (config-*, login/totp,
 * login/smsotp, change-phone, config-webauthn-*); the Duo realtime channel is routes/duoChannel.ts.
 * Tokens are opened only from the browser they were given to, and spent once, in the transaction that
 * enrols and starts the session (services/signIn.ts finishWithToken). See docs/mfa.md.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AppContext } from '../context.js';
import { rateLimited } from '../errors.js';
import { randomToken, safeEqual, sha256 } from '../crypto/primitives.js';
import type { Queryable } from '../db/data.js';
import { credentialIdInUse } from '../db/passkeys.js';
import {
  codeAccepted,
  consumeChallengeCode,
  consumeSessionCode,
  enrol,
  newTotpSecret,
  openChallenge,
  openSessionChallenge,
  openToken,
  relyingParty,
  reserveSessionTry,
  sessionCodeAccepted,
  tokenWithTry,
  useChallenge,
  verifyConsecutiveTotp,
  verifyTotp,
  type OpenToken,
} from '../services/mfa.js';
import { notifyPhoneChanged } from '../services/notifications.js';
import { countSignIn, DUO_SETUP_STATE, finishWithToken, LOGIN_TOKEN_TTL_MS, sendSmsCode, startMfaChallenge, type LoginResult } from '../services/signIn.js';
import { DUO_CALLBACK_PATH } from '../duo/universal.js';
import { browserNonce } from '../sso/browser.js';
import { afterSecondFactor } from '../services/signInExtras.js';
import { enrolments, isUnsupportedSmsRegion, webAuthnCredentials, type MfaType } from '../services/users.js';
import { parseAssertion, verifyKeyAssertion } from '../services/webauthn.js';
import { authRateLimit, operationRoute } from './operation.js';

const INVALID_LOGIN_TOKEN = { resultCode: 'INVALID_LOGIN_TOKEN' } as const;
const INVALID_USER_TOKEN = { resultCode: 'INVALID_USER_TOKEN' } as const;
const INVALID_MFA_CODE = { resultCode: 'INVALID_MFA_CODE' } as const;

/**
 * A right code: the account's try is given back, then the token's last step (spent once, with its
 * effects on the transaction, then the session); a token another request spent first is expired.
 * Then what a finished second factor adds: a trusted browser, recovery codes.
 */
async function signedIn(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  open: OpenToken,
  effects?: (t: Queryable) => Promise<void>,
): Promise<LoginResult> {
  await codeAccepted(ctx, open.user.id);
  const result = (await finishWithToken(ctx, req, reply, open, effects)) ?? {
    resultCode: open.row.purpose === 'MFA' ? 'INVALID_LOGIN_TOKEN' : 'INVALID_USER_TOKEN',
  };
  if (result.resultCode === 'SUCCESS') await afterSecondFactor(ctx, req, reply, open.row, open.user);
  return open.row.purpose === 'MFA' ? countSignIn(ctx, result) : result;
}

/** The Verify MFA modal's session and its enrolment of `type` (never cached), or the answer that refuses it. */
async function sessionEnrolment(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, type: MfaType) {
  reply.header('Cache-Control', 'no-store');
  const current = await ctx.sessions.current(req);
  if (!current) return { refused: INVALID_LOGIN_TOKEN };
  const enrolment = (await enrolments(ctx.data, current.user.id)).find((e) => e.type === type);
  return enrolment ? { current, enrolment } : { refused: { resultCode: 'MFA_NOT_CONFIGURED' } as const };
}

/** credsRequest of the Verify MFA modal: the request options JSON, base64url encoded (SPEC §3 extended MFA response). */
const base64urlJson = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');

const mfa: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };

  // ---- sign-in ----------------------------------------------------------------------------------

  operationRoute(
    app,
    'mfaLogin',
    async (req, reply) => {
      const { loginToken, code } = req.body;
      const open = await tokenWithTry(ctx, req, loginToken, 'MFA');
      if (!open) return countSignIn(ctx, INVALID_LOGIN_TOKEN);
      const type = open.row.mfa_type;
      let ok = false;
      if (type === 'TOTP') {
        const enrolment = (await enrolments(ctx.data, open.user.id)).find((e) => e.type === 'TOTP');
        ok = enrolment ? await verifyTotp(ctx, enrolment, code) : false;
      } else if (type === 'SMSOTP' || type === 'DUO') {
        ok = (await consumeChallengeCode(ctx, open.row.token_hash, type, code)) !== undefined;
      }
      if (!ok) return countSignIn(ctx, INVALID_MFA_CODE);
      return signedIn(ctx, req, reply, open);
    },
    limited,
  );

  operationRoute(
    app,
    'u2fLogin',
    async (req, reply) => {
      const { loginToken, publicKeyCredentialJson } = req.body;
      const open = await tokenWithTry(ctx, req, loginToken, 'MFA', (o) => o.row.mfa_type === 'U2F_TOKEN');
      if (!open) return countSignIn(ctx, INVALID_LOGIN_TOKEN);
      const assertion = parseAssertion(publicKeyCredentialJson);
      if (!assertion) return countSignIn(ctx, { resultCode: 'MALFORMED_CREDENTIAL' });
      const challenge = await openChallenge(ctx, open.row.token_hash, 'U2F_TOKEN');
      const verified = challenge?.challenge ? await verifyKeyAssertion(ctx, req, open.user.id, challenge.challenge, assertion) : false;
      if (!challenge || !verified) return countSignIn(ctx, INVALID_MFA_CODE);
      // One assertion sent many times at once: only the request that spends the challenge goes on,
      // and only the one that spends the token gets a session.
      if (!(await useChallenge(ctx, challenge.id))) return countSignIn(ctx, INVALID_LOGIN_TOKEN);
      return signedIn(ctx, req, reply, open);
    },
    limited,
  );

  operationRoute(
    app,
    'switchMfa',
    async (req, reply) => {
      const { loginToken, mfaType } = req.body;
      const open = await openToken(ctx, req, loginToken, 'MFA');
      if (!open) return INVALID_LOGIN_TOKEN;
      const enrolment = (await enrolments(ctx.data, open.user.id)).find((e) => e.type === mfaType);
      if (!enrolment) return { resultCode: 'MFA_NOT_CONFIGURED' };
      if (mfaType === 'SMSOTP' && isUnsupportedSmsRegion(enrolment.phone ?? open.user.phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
      // Switching to SMS again is how "Resend code" asks for a new code (the previous one is void).
      const { textRefusedFor, textFailure, ...started } = await startMfaChallenge(ctx, open.user, open.row.token_hash, mfaType, { req, reply });
      if (textRefusedFor) return rateLimited(reply, textRefusedFor, 'Too many texts');
      if (textFailure) return { resultCode: 'TEXT_NOT_DELIVERED', textFailure };
      await ctx.data.run('UPDATE login_tokens SET mfa_type = ? WHERE token_hash = ?', [mfaType, open.row.token_hash]);
      return { resultCode: 'SUCCESS', ...started };
    },
    limited,
  );

  // ---- Verify MFA modal (cookie session) -------------------------------------------------------

  operationRoute(
    app,
    'switchMfaSession',
    async (req, reply) => {
      const { mfaType } = req.body;
      const found = await sessionEnrolment(ctx, req, reply, mfaType);
      if ('refused' in found) return found.refused;
      const { current, enrolment } = found;
      if (mfaType === 'SMSOTP' && isUnsupportedSmsRegion(enrolment.phone ?? current.user.phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
      const { textRefusedFor, textFailure, ...started } = await startMfaChallenge(ctx, current.user, null, mfaType, { req, reply });
      if (textRefusedFor) return rateLimited(reply, textRefusedFor, 'Too many texts');
      if (textFailure) return { resultCode: 'TEXT_NOT_DELIVERED', textFailure };
      if (mfaType === 'SMSOTP' && !started.sendSms) return { resultCode: 'PHONE_REQUIRED' };
      const { credsRequest, ...rest } = started;
      return { resultCode: 'SUCCESS', ...rest, ...(credsRequest ? { credsRequest: base64urlJson(credsRequest) } : {}) };
    },
    limited,
  );

  operationRoute(
    app,
    'verifyMfaSession',
    async (req, reply) => {
      const { mfaType, mfaCode, publicKeyCredentialEncoded } = req.body;
      const found = await sessionEnrolment(ctx, req, reply, mfaType);
      if ('refused' in found) return found.refused;
      const { current, enrolment } = found;
      const userId = current.user.id;
      // At most 5 wrong codes per session (and the account's hourly budget), counted before the check:
      // then the modal answers INVALID_LOGIN_TOKEN ('Token expired') whatever the code.
      if (!(await reserveSessionTry(ctx, current.sessionId, userId))) return INVALID_LOGIN_TOKEN;
      let ok = false;
      if (mfaType === 'TOTP') {
        ok = await verifyTotp(ctx, enrolment, mfaCode ?? '');
      } else if (mfaType === 'SMSOTP' || mfaType === 'DUO') {
        ok = await consumeSessionCode(ctx, userId, mfaType, mfaCode ?? '');
      } else {
        const assertion = parseAssertion(publicKeyCredentialEncoded ?? '');
        if (!assertion) return { resultCode: 'MALFORMED_CREDENTIAL' };
        const challenge = await openSessionChallenge(ctx, userId, 'U2F_TOKEN');
        ok = challenge?.challenge ? await verifyKeyAssertion(ctx, req, userId, challenge.challenge, assertion) : false;
        if (ok && challenge) ok = await useChallenge(ctx, challenge.id);
      }
      if (!ok) return INVALID_MFA_CODE;
      await sessionCodeAccepted(ctx, current.sessionId, userId);
      return { resultCode: 'SUCCESS' };
    },
    limited,
  );

  // ---- setup (SETUP_MFA userToken) --------------------------------------------------------------

  operationRoute(
    app,
    'configTotp',
    async (req) => {
      const open = await openToken(ctx, req, req.body.userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      const { key, qrUrl } = newTotpSecret(open.user.email);
      await ctx.data.run('UPDATE login_tokens SET pending_secret = ? WHERE token_hash = ?', [ctx.seal(key), open.row.token_hash]);
      return { resultCode: 'SUCCESS', key, qrUrl };
    },
    limited,
  );

  operationRoute(
    app,
    'loginTotp',
    async (req, reply) => {
      const { key, code, secondaryCode, userToken } = req.body;
      const open = await tokenWithTry(ctx, req, userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      const pending = open.row.pending_secret ? ctx.unseal(open.row.pending_secret) : undefined;
      const check = pending !== undefined && safeEqual(pending, key) ? await verifyConsecutiveTotp(ctx, key, code, secondaryCode) : { ok: false };
      if (!check.ok) return INVALID_MFA_CODE;
      return signedIn(ctx, req, reply, open, (t) => enrol(ctx, t, req, open.user, 'TOTP', { secret: key, totpLastStep: check.step }));
    },
    limited,
  );

  operationRoute(
    app,
    'configSmsotp',
    async (req, reply) => {
      const open = await openToken(ctx, req, req.body.userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      // A number typed in this setup (change-phone) gets the code; it is stored once the code comes back.
      const phone = open.row.pending_phone ?? open.user.phone;
      if (!phone) return { resultCode: 'PHONE_REQUIRED' };
      if (isUnsupportedSmsRegion(phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
      const sent = await sendSmsCode(ctx, open.user, open.row.token_hash, phone);
      if (sent.textRefusedFor) return rateLimited(reply, sent.textRefusedFor, 'Too many texts');
      if (sent.textFailure) return { resultCode: 'TEXT_NOT_DELIVERED', textFailure: sent.textFailure };
      return { resultCode: 'SUCCESS', sendSms: true };
    },
    limited,
  );

  operationRoute(
    app,
    'loginSmsotp',
    async (req, reply) => {
      const { code, userToken } = req.body;
      const open = await tokenWithTry(ctx, req, userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      const challenge = await consumeChallengeCode(ctx, open.row.token_hash, 'SMSOTP', code);
      // The code proves the number it was sent to: that number is enrolled (and becomes the account's).
      const phone = challenge?.phone ?? (challenge ? open.user.phone : null);
      if (!phone) return INVALID_MFA_CODE;
      return signedIn(ctx, req, reply, open, async (t) => {
        await enrol(ctx, t, req, open.user, 'SMSOTP', { phone });
        if (phone !== open.user.phone) {
          await t.run('UPDATE users SET phone = ?, updated_at = ? WHERE id = ?', [phone, ctx.now(), open.user.id]);
          await notifyPhoneChanged(ctx, t, req, open.user, phone);
        }
      });
    },
    limited,
  );

  operationRoute(
    app,
    'changePhone',
    async (req) => {
      const { userToken, phoneNumber } = req.body;
      const open = await openToken(ctx, req, userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      if (!/^\+[1-9][0-9]{4,14}$/.test(phoneNumber) || !isValidPhoneNumber(phoneNumber)) return { resultCode: 'INVALID_PHONE' };
      if (isUnsupportedSmsRegion(phoneNumber)) return { resultCode: 'INVALID_COUNTRY_REGION' };
      // Not stored yet: the number is pending on this setup until a code sent to it comes back
      // (login/smsotp); texts for a password reset keep going to the number on file.
      await ctx.data.run('UPDATE login_tokens SET pending_phone = ? WHERE token_hash = ?', [phoneNumber, open.row.token_hash]);
      return { resultCode: 'SUCCESS', phoneNumber };
    },
    limited,
  );

  operationRoute(
    app,
    'configWebauthnInit',
    async (req) => {
      const open = await openToken(ctx, req, req.body.userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      const { rpID } = relyingParty(ctx, req);
      const options = await generateRegistrationOptions({
        rpName: 'Frontdoor',
        rpID,
        userName: open.user.email,
        userID: new TextEncoder().encode(open.user.uid),
        attestationType: 'none',
        // Discoverable where the key can: it then also signs in alone, as a passkey (services/passkeys.ts).
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'discouraged' },
        excludeCredentials: (await webAuthnCredentials(ctx.data, open.user.id)).map((id) => ({ id })),
      });
      const registrationToken = randomToken(32);
      const t = ctx.now();
      await ctx.data.run(
        `INSERT INTO mfa_challenges (login_token_hash, user_id, type, code_hash, challenge, created_at, expires_at) VALUES (?, ?, 'U2F_TOKEN', ?, ?, ?, ?)`,
        [open.row.token_hash, open.user.id, sha256(registrationToken), options.challenge, t, t + LOGIN_TOKEN_TTL_MS],
      );
      return { resultCode: 'SUCCESS', createCredentialsJson: JSON.stringify({ publicKey: options }), registrationToken };
    },
    limited,
  );

  operationRoute(
    app,
    'configWebauthnComplete',
    async (req, reply) => {
      const { setupMfaRequest, webAuthnRegistrationResponse: reg } = req.body;
      const open = await tokenWithTry(ctx, req, setupMfaRequest.userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      const deviceName = reg.deviceName.trim();
      const challenge = await ctx.data.get<{ id: number; challenge: string }>(
        `SELECT id, challenge FROM mfa_challenges WHERE login_token_hash = ? AND type = 'U2F_TOKEN' AND code_hash = ?
      AND used_at IS NULL AND expires_at > ?`,
        [open.row.token_hash, sha256(reg.registrationToken), ctx.now()],
      );
      if (!challenge || deviceName === '') return { resultCode: 'MALFORMED_CREDENTIAL' };
      const token = reg.tokenResponse;
      // The contract takes any credential type; the library verifies public-key credentials only.
      if (token.type !== 'public-key') return { resultCode: 'MALFORMED_CREDENTIAL' };
      const { origin, rpID } = relyingParty(ctx, req);
      try {
        const result = await verifyRegistrationResponse({
          response: {
            id: token.id,
            rawId: token.rawId ?? token.id,
            type: 'public-key',
            response: { attestationObject: token.response.attestationObject, clientDataJSON: token.response.clientDataJSON },
            clientExtensionResults: token.clientExtensionResults ?? {},
          },
          expectedChallenge: challenge.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
        });
        if (!result.verified) throw new Error('not verified');
        const { credential } = result.registrationInfo;
        if (!(await useChallenge(ctx, challenge.id))) return INVALID_USER_TOKEN;
        return await signedIn(ctx, req, reply, open, async (t) => {
          // One credential, one account (migration 043): an id held as a passkey or a security key is refused (the catch below).
          if (await credentialIdInUse(t, credential.id)) throw new Error('credential id in use');
          await enrol(ctx, t, req, open.user, 'U2F_TOKEN', {
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey).toString('base64url'),
            signCount: credential.counter,
            deviceName,
            aaguid: result.registrationInfo.aaguid,
            deviceType: result.registrationInfo.credentialDeviceType,
            backedUp: result.registrationInfo.credentialBackedUp,
          });
        });
      } catch (error) {
        req.log.info({ err: error }, 'webauthn registration refused');
        return { resultCode: 'MALFORMED_CREDENTIAL' };
      }
    },
    limited,
  );

  operationRoute(
    app,
    'configDuo',
    async (req, reply) => {
      const { userToken, returnTo } = req.body;
      const open = await openToken(ctx, req, userToken, 'SETUP_MFA');
      if (!open) return INVALID_USER_TOKEN;
      if (await ctx.duo.available(open.user.organization_id)) {
        // Duo Universal Prompt: Duo enrols the user in its own prompt; the callback enrols DUO here and signs in.
        const started = await ctx.duo.start(ctx.data, {
          loginTokenHash: `${DUO_SETUP_STATE}${open.row.token_hash}`,
          username: open.user.email,
          browserNonce: browserNonce(req, reply),
          now: ctx.now(),
          organizationId: open.user.organization_id,
        });
        if (!started.ok) req.log.warn(`duo: ${started.detail}`);
        return { resultCode: 'SUCCESS', duoMfaUrl: started.ok ? started.url : `${DUO_CALLBACK_PATH}?unavailable=1` };
      }
      // The demo Duo enrolment page (/dev/duo?setup=) enrols DUO and signs in; a real tenant points at Duo.
      const setup = ctx.tokens.sign(DUO_SETUP_PURPOSE, LOGIN_TOKEN_TTL_MS, {
        uid: open.user.id,
        th: open.row.token_hash,
        rt: returnTo ?? open.row.return_to ?? null,
      });
      return { resultCode: 'SUCCESS', duoMfaUrl: `/dev/duo?setup=${encodeURIComponent(setup)}` };
    },
    limited,
  );
};

export const DUO_SETUP_PURPOSE = 'duo-setup';
export default mfa;
