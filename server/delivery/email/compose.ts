/**
 * Renders the messages the server sends, in the visitor's language and the brand of the host they
 * used: subject, plain text and HTML for emails (both parts go out), one short text for SMS. The result
 * is a NewDelivery for the queue. Every value put into HTML is escaped.
 */
import { escapeHtml } from '../../security/html.js';
import type { NewDelivery } from '../types.js';
import { bcp47, emailTexts, resolveLanguage, RTL_LANGUAGES, translate } from './texts.js';

/** Who the message speaks for: the branded host's name and logo, and the base URL of its links. */
export interface Brand {
  name: string;
  /** Absolute URL of the logo (a branding row's login_logo under its public URL), if any. */
  logoUrl?: string | undefined;
  publicUrl: string;
}

export type MfaMethod = 'TOTP' | 'SMSOTP' | 'DUO' | 'U2F_TOKEN';
export type TrialRequest = 'EXTENSION' | 'PURCHASE' | 'CALL';

export type EmailInput =
  | { kind: 'reset' | 'activation' | 'registration'; link: string }
  | { kind: 'password-changed'; link: string; when: number }
  | { kind: 'mfa-added'; link: string; when: number; method: MfaMethod }
  /** `phone`: the new number's last four digits only (the email may be read by someone else). */
  | { kind: 'phone-changed'; link: string; when: number; phone: string }
  /** `link`: the passkey's "This wasn't me" link (services/passkeyNotMe.ts), not a reset link. */
  | { kind: 'passkey-added'; link: string; when: number }
  | { kind: 'recovery-code-used'; link: string; when: number; left: number }
  | { kind: 'trial-request'; request: TrialRequest; email: string; company: string };

export type TextInput = { kind: 'reset-code' | 'mfa-code'; code: string };

export const EMAIL_KINDS = [
  'reset',
  'activation',
  'registration',
  'password-changed',
  'mfa-added',
  'phone-changed',
  'passkey-added',
  'recovery-code-used',
  'trial-request',
] as const;
export const TEXT_KINDS = ['reset-code', 'mfa-code'] as const;

interface Addressed {
  to: string;
  /** The recipient's language (users.language), any case; unknown ones fall back (texts.ts). */
  language: string | null | undefined;
  brand: Brand;
}

/** "25 November 2026 at 14:05 UTC" in the language (UTC: the server does not know the reader's zone). */
function formatWhen(lang: string, when: number): string {
  return `${new Intl.DateTimeFormat(bcp47(lang), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(when))} UTC`;
}

/**
 * The emails that carry a link, by their section of email.json: an invitation (reset, activation,
 * registration: the link expires, "ignore this if you did not ask") or the notice of a change to the
 * account ("not you? …": `notYou`, or the section's own when its link is not a reset link).
 */
const LINKED: Readonly<Record<Exclude<EmailInput['kind'], 'trial-request'>, { section: string; invitation: boolean; notYou?: string }>> = {
  reset: { section: 'reset', invitation: true },
  activation: { section: 'activation', invitation: true },
  registration: { section: 'registration', invitation: true },
  'password-changed': { section: 'passwordChanged', invitation: false },
  'mfa-added': { section: 'mfaAdded', invitation: false },
  'phone-changed': { section: 'phoneChanged', invitation: false },
  'passkey-added': { section: 'passkeyAdded', invitation: false, notYou: 'passkeyAdded.notYou' },
  'recovery-code-used': { section: 'recoveryCodeUsed', invitation: false },
};

/** The paragraphs (and the button) of each kind, as keys of email.json. */
function parts(input: EmailInput): { section: string; paragraphs: string[]; action?: string; link?: string; ignore: boolean; notYou?: string } {
  if (input.kind === 'trial-request') return { section: 'trialRequest', paragraphs: [`trialRequest.${input.request.toLowerCase()}`], ignore: false };
  const { section, invitation, notYou = 'notYou' } = LINKED[input.kind];
  return {
    section,
    paragraphs: invitation ? [`${section}.intro`, `${section}.expiry`] : [`${section}.intro`],
    action: `${section}.action`,
    link: input.link,
    ignore: invitation,
    ...(invitation ? {} : { notYou }),
  };
}

function html(
  lang: string,
  brand: Brand,
  subject: string,
  paragraphs: string[],
  action: { label: string; link: string } | undefined,
  fallback: string,
  closing: string[],
  footer: string,
): string {
  const rtl = RTL_LANGUAGES.has(lang);
  const align = rtl ? 'right' : 'left';
  const p = (text: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:24px;text-align:${align}">${escapeHtml(text)}</p>`;
  const header = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" height="40" style="display:block;height:40px;border:0">`
    : `<strong style="font-size:20px">${escapeHtml(brand.name)}</strong>`;
  const button = action
    ? `<p style="margin:24px 0;text-align:${align}"><a href="${escapeHtml(action.link)}" style="display:inline-block;background:#0062c4;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#4b5563;text-align:${align}">${escapeHtml(fallback)}<br><a href="${escapeHtml(action.link)}" style="color:#0062c4;word-break:break-all">${escapeHtml(action.link)}</a></p>`
    : '';
  return `<!doctype html>
<html lang="${bcp47(lang)}" dir="${rtl ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;color:#1f2937;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px" dir="${rtl ? 'rtl' : 'ltr'}"><tr><td style="padding:28px 32px;text-align:${align}">
<div style="margin:0 0 24px">${header}</div>
${paragraphs.map(p).join('\n')}
${button}
${closing.map(p).join('\n')}
</td></tr></table>
<p style="max-width:560px;margin:16px auto 0;font-size:12px;line-height:18px;color:#6b7280;text-align:center">${escapeHtml(footer)}<br><a href="${escapeHtml(brand.publicUrl)}" style="color:#6b7280">${escapeHtml(brand.publicUrl.replace(/^https?:\/\//, ''))}</a></p>
</td></tr></table></body></html>`;
}

/** An email in both parts, ready for the queue. */
export function composeEmail(input: EmailInput & Addressed): NewDelivery {
  const texts = emailTexts();
  const lang = resolveLanguage(input.language, texts.keys());
  const vars: Record<string, string> = { brand: input.brand.name, email: input.to };
  if ('when' in input) vars.when = formatWhen(lang, input.when);
  if (input.kind === 'mfa-added') vars.method = translate(texts, lang, `mfaAdded.methods.${input.method}`);
  if (input.kind === 'phone-changed') vars.phone = `•••${input.phone}`;
  if (input.kind === 'recovery-code-used') vars.left = new Intl.NumberFormat(bcp47(lang)).format(input.left);
  if (input.kind === 'trial-request') Object.assign(vars, { email: input.email, company: input.company });
  const t = (key: string) => translate(texts, lang, key, vars);
  const shape = parts(input);
  const subject = input.kind === 'trial-request' ? t(`trialRequest.${input.request.toLowerCase()}Subject`) : t(`${shape.section}.subject`);
  const paragraphs = shape.paragraphs.map(t);
  const action = shape.action && shape.link ? { label: t(shape.action), link: shape.link } : undefined;
  const closing = [...(shape.notYou ? [t(shape.notYou)] : []), ...(shape.ignore ? [t('ignore')] : []), t('signature')];
  const footer = translate(texts, lang, 'footer', { ...vars, email: input.to });
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.link}`] : []), ...closing, '--', footer, input.brand.publicUrl].join('\n\n');
  return {
    channel: 'email',
    kind: input.kind,
    to: input.to,
    language: lang,
    subject,
    text,
    html: html(lang, input.brand, subject, paragraphs, action, t('linkFallback'), closing, footer),
    ...(action ? { link: action.link } : {}),
  };
}

/** A text message (SMS), ready for the queue. */
export function composeText(input: TextInput & Addressed): NewDelivery {
  const texts = emailTexts();
  const lang = resolveLanguage(input.language, texts.keys());
  const key = input.kind === 'reset-code' ? 'sms.resetCode' : 'sms.mfaCode';
  return {
    channel: 'sms',
    kind: input.kind,
    to: input.to,
    language: lang,
    text: translate(texts, lang, key, { brand: input.brand.name, code: input.code }),
    code: input.code,
  };
}
