/**
 * Plain forms (issue 27): a step whose form is marked plainForm in its screen file (sign-in, the reset
 * request, resend activation) also works without JavaScript. Its prerendered page posts the form to
 * its own address; this runs what the app would run — the step's probes (as if the visitor had typed:
 * the sign-in's single sign-on check), the submit that applies, its operation (the API route itself,
 * through fastify's inject, with the visitor's cookies and address), the outcome its result code
 * selects (catalogue/language/interpreter.ts: the engine's interpreter, with this as its host) — and answers
 * as the app would go on: a sign-in goes to the landing page or the same-site return_to (also when it
 * leads through a screen that without scripts only signs in: the passkey offer), navigate and
 * redirect outcomes are followed (303), a step without a form of its own is its prerendered page, an
 * error or a warning is the form's page again with that text and what was typed (never a password).
 * A demanded bot check says that it needs JavaScript. A post to any other page of the app goes back
 * to that page (303), which says that it needs JavaScript.
 *
 * The answer pages carry no script: they are for a browser without the app. Form bodies are parsed
 * in this plugin only; the API keeps to JSON (server/security/csrf.ts), and a cross-site post is
 * refused there as any other.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { holds } from '../../catalogue/language/conditions.js';
import { planFor, runSubmit, type CallResult, type OutcomeHost } from '../../catalogue/language/interpreter.js';
import { readPointer } from '../../catalogue/language/json-pointer.js';
import { matchRoute } from '../../catalogue/language/routes.js';
import { resolveMapping, type Scope } from '../../catalogue/language/scope.js';
import type { TFunction } from '../../catalogue/language/texts.js';
import type { CallSpec, SharedOutcomes, StepSpec } from '../../catalogue/language/types.js';
import { apiError } from '../errors.js';
import { EXPIRED_TRIAL_COOKIE } from '../routes/expiredAccount.js';
import { safeReturnTo } from '../services/signIn.js';
import { LANGUAGES } from '../services/lists.js';
import { requestHostname } from '../services/publicUrl.js';
import { escapeHtml, PAGE_SLOTS, type SiteDimension } from './pages.js';

/** .vite/forms.json, written by scripts/prerender.ts. */
export interface PlainForms {
  /** Where a signed-in visitor lands without a return_to (src/app/return-to.ts). */
  landing: { default: string; endUser: string };
  forms: PlainForm[];
  /**
   * Routes whose screen, without scripts, only signs the visitor in (scripts/prerender.ts: the passkey
   * offer, which needs a script to make a passkey): a navigation there is answered as a sign-in.
   */
  signInThrough?: string[];
}

export interface PlainForm {
  /** The route (pattern) whose first state shows the form. */
  path: string;
  screenId: string;
  step: string;
  /** The screen's context with the route's: the scope's ctx. */
  context: Record<string, unknown>;
  /** The step as the (expanded) screen file has it. */
  spec: StepSpec;
  outcomes: SharedOutcomes;
  /** The answer pages the build prerendered: 'error', 'warning', 'step:<step>', 'step:<step>:<message kind>'. */
  answers: string[];
  /** The site facts those pages vary by. */
  site: SiteDimension[];
}

type Answers = {
  config: { environment?: string; selfRegistrationEnabled?: boolean };
  branding: { isEnabled?: boolean; browserName?: string; loginLogo?: string };
};

/** What serve.ts lends this plugin: the build's forms, texts and pages. */
export interface PlainFormPages<A extends Answers> {
  forms(): PlainForms | undefined;
  /** Whether the path is a page of the app (a catalogue route). */
  isPage(urlPath: string): boolean;
  languageOf(req: FastifyRequest): string;
  answersOf(req: FastifyRequest): A;
  texts(lang: string): TFunction;
  /** A prerendered answer page, `fill` applied to the markup in #root; undefined when the build has none. */
  answerPage(req: FastifyRequest, urlPath: string, lang: string, answers: A, kind: string, fill: (markup: string) => string): Buffer | undefined;
}

type FormData = Record<string, unknown>;

/** The posted fields as the form's data: each top-level field of the schema typed as it says (a checkbox is there or not). */
export function formDataOf(spec: StepSpec, body: Record<string, unknown>): FormData {
  const properties = (spec.schema?.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
  const data: FormData = {};
  for (const [name, property] of Object.entries(properties)) {
    const raw = Object.hasOwn(body, name) ? body[name] : undefined;
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (Array.isArray(property.enum)) {
      // rjsf's radios and selects post the index of their choice ('0', '1'…), or a value of the enum.
      const choice = property.enum.find((option, index) => typeof value === 'string' && (String(option) === value || String(index) === value));
      if (choice !== undefined) data[name] = choice;
    } else if (property.type === 'boolean') data[name] = value !== undefined && value !== '' && value !== 'false';
    else if (typeof value !== 'string' || value === '') continue;
    else if (property.type === 'number' || property.type === 'integer') {
      if (Number.isFinite(Number(value))) data[name] = Number(value);
    } else if (property.type === 'string' || property.type === undefined) data[name] = value;
  }
  return data;
}

/** The required fields left empty (and not hidden under this scope), each as the browser's check would say it. */
function missingTexts(spec: StepSpec, data: FormData, scope: Scope, t: TFunction): string[] {
  const required = Array.isArray(spec.schema?.required) ? (spec.schema.required as string[]) : [];
  const ui = (spec.uiSchema ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return required
    .filter((name) => data[name] === undefined || (typeof data[name] === 'string' && (data[name] as string).trim() === ''))
    .filter((name) => ui[name]?.['ui:hiddenWhen'] === undefined || !holds(ui[name]?.['ui:hiddenWhen'] as never, scope))
    .map((name) => {
      const own = (ui[name]?.['ui:messages'] as Record<string, string> | undefined)?.required;
      if (own) return t(own);
      const title = ui[name]?.['ui:title'];
      return t('common.errorSummary.item', { field: typeof title === 'string' ? t(title) : name, message: t('validation.required') });
    });
}

/** A step's choices: field -> its enum (rjsf's radios and selects have its indexes as their values). */
export function choicesOf(spec: StepSpec): Record<string, readonly unknown[]> {
  const properties = (spec.schema?.properties ?? {}) as Record<string, { enum?: unknown[] }>;
  return Object.fromEntries(Object.entries(properties).flatMap(([name, property]) => (Array.isArray(property.enum) ? [[name, property.enum]] : [])));
}

/** The inputs of a page's markup with the posted values (text-like inputs and choices; never a password or a hidden field). */
export function withValues(markup: string, data: FormData, choices: Record<string, readonly unknown[]> = {}): string {
  return markup.replace(/<input\b[^>]*>/g, (tag) => {
    const name = /\sname="([^"]*)"/.exec(tag)?.[1];
    if (name === undefined || !Object.hasOwn(data, name)) return tag;
    const type = (/\stype="([^"]*)"/.exec(tag)?.[1] ?? 'text').toLowerCase();
    const value = data[name];
    if (type === 'password' || type === 'hidden' || type === 'file') return tag;
    if (type === 'checkbox' || type === 'radio') {
      const unchecked = tag.replace(/\schecked(="[^"]*")?/g, '');
      const own = /\svalue="([^"]*)"/.exec(tag)?.[1];
      const index = choices[name]?.indexOf(value) ?? -1;
      const on = type === 'checkbox' ? value === true : own === escapeHtml(String(value)) || (index >= 0 && own === String(index));
      return on ? unchecked.replace(/^<input\b/, '<input checked=""') : unchecked;
    }
    const text = value === undefined || value === null ? '' : escapeHtml(String(value));
    // The renderer writes an empty value as value="" (React) or a bare `value` (Preact): either is
    // replaced, found attribute by attribute (a quoted value is part of its attribute, never matched).
    let found = false;
    const filled = tag.replace(/\s([^\s"'=<>/]+)(="[^"]*")?/g, (attribute, name: string) => {
      if (name !== 'value') return attribute;
      found = true;
      return ` value="${text}"`;
    });
    return found ? filled : tag.replace(/^<input\b/, `<input value="${text}"`);
  });
}

/** The headers an operation sees when the form's post runs it: the visitor's, not this server's. */
const FORWARDED = ['host', 'cookie', 'user-agent', 'accept-language', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded'];

/** Runs an operation as the app's call would: its API route, the visitor's headers and address; the answer's cookies go to the visitor. */
async function callOperation(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  call: CallSpec,
  body: Record<string, unknown>,
): Promise<CallResult> {
  const op = app.fd.contract.get(call.operation);
  const rest = { ...body };
  const url = op.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_all, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(value === undefined || value === null ? '' : String(value));
  });
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const name of FORWARDED) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
  const bodied = op.method !== 'GET' && op.method !== 'DELETE';
  const response = await app.inject({
    method: op.method,
    url,
    headers: bodied ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(bodied ? { payload: JSON.stringify(rest) } : {}),
    remoteAddress: req.socket.remoteAddress,
  });
  const cookies = response.headers['set-cookie'];
  if (cookies) reply.header('set-cookie', cookies);
  let data: unknown;
  try {
    data = response.body === '' ? {} : JSON.parse(response.body);
  } catch {
    data = undefined;
  }
  const status = response.statusCode;
  if (status >= 400 || data === undefined) return { code: `HTTP_${status}`, status, data };
  const code = readPointer(data, call.resultFrom ?? '/resultCode');
  return { code: typeof code === 'string' && code !== '' ? code : 'SUCCESS', status, data };
}

/** One post of a plain form: the request, its form, what the visitor sent and the texts of their language. */
interface FormPost<A extends Answers> {
  app: FastifyInstance;
  req: FastifyRequest;
  reply: FastifyReply;
  pages: PlainFormPages<A>;
  forms: PlainForms;
  form: PlainForm;
  urlPath: string;
  lang: string;
  t: TFunction;
  answers: A;
  query: Record<string, string>;
  data: FormData;
  returnTo: string | undefined;
}

function postOf<A extends Answers>(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  pages: PlainFormPages<A>,
  forms: PlainForms,
  form: PlainForm,
) {
  const lang = pages.languageOf(req);
  const query = Object.fromEntries(new URLSearchParams(req.url.split('?')[1] ?? ''));
  const body = req.body !== null && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  const post: FormPost<A> = {
    app,
    req,
    reply,
    pages,
    forms,
    form,
    lang,
    query,
    urlPath: req.url.split('?')[0] ?? '/',
    t: pages.texts(lang),
    answers: pages.answersOf(req),
    data: formDataOf(form.spec, body),
    returnTo: safeReturnTo(query.return_to ?? query.redirect_uri),
  };
  return post;
}

/** The scope the form's conditions and mappings read, with this context: as the app's would be for this visitor. */
function scopeOf<A extends Answers>({ req, form, urlPath, query, lang, answers, data, returnTo }: FormPost<A>, ctx: Record<string, unknown>): Scope {
  return {
    form: data,
    ctx,
    params: matchRoute(form.path, urlPath) ?? {},
    query,
    env: {
      origin: `${req.protocol}://${req.host}`,
      brandingHostname: requestHostname(req),
      returnTo,
      browserLanguage: LANGUAGES.includes(lang) ? lang : undefined,
    },
    flags: {
      production: answers.config.environment === 'production',
      selfRegistrationEnabled: answers.config.selfRegistrationEnabled === true,
      branded: Boolean(answers.branding.browserName || answers.branding.loginLogo),
      expiredTrialCookie: req.cookies?.[EXPIRED_TRIAL_COOKIE] !== undefined,
    },
  };
}

/** How a post is answered: the form's page again with a text, a page the build wrote, or a redirect. */
function answersTo<A extends Answers>(post: FormPost<A>) {
  const { req, reply, pages, urlPath, lang, answers, data, form, t } = post;
  const html = (page: Buffer) => reply.code(200).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page);
  const go = (location: string) => reply.code(303).header('Cache-Control', 'no-store').header('Location', location).send();
  /** The form's page again, with a text above its submit and what was typed. */
  const again = (kind: 'error' | 'warning', text: string) => {
    const page = pages.answerPage(req, urlPath, lang, answers, kind, (markup) =>
      withValues(markup.replaceAll(PAGE_SLOTS.text, escapeHtml(text)), data, choicesOf(form.spec)),
    );
    return page ? html(page) : go(req.url);
  };
  const text = (resolved: { key: string; values: Record<string, unknown> }) => t(resolved.key, resolved.values);
  return { html, go, again, text, unexpected: () => again('error', t('common.errors.unexpected')) };
}

/** The plain form as the interpreter's host: its calls are the API routes, its transitions HTTP answers. */
function plainFormHost<A extends Answers>(post: FormPost<A>, ctx: Record<string, unknown>): OutcomeHost<FastifyReply> {
  const { app, req, reply, pages, forms, form, urlPath, lang, answers, t, data, returnTo } = post;
  const answer = answersTo(post);
  const signIn = (response: unknown) => {
    const userType = (response as { userType?: unknown } | undefined)?.userType;
    return answer.go(returnTo ?? (userType === 'END_USER' ? forms.landing.endUser : forms.landing.default));
  };
  return {
    outcomes: form.outcomes,
    step: () => form.spec,
    scope: () => scopeOf(post, ctx),
    formData: () => data,
    async call(call, body) {
      const result = await callOperation(app, req, reply, call, body);
      // The server demands the bot check, which runs in the browser.
      const demanded = (result.data as { recaptchaRequired?: unknown } | undefined)?.recaptchaRequired === true;
      if (result.code === 'HUMAN_VERIFICATION_FAILED' && demanded) return { end: answer.again('error', t('common.errors.botCheckNeedsScript')) };
      return result;
    },
    apply(plan) {
      ctx = plan.ctx;
    },
    transitions: {
      authenticate: signIn,
      // A screen that without scripts only signs in (the passkey offer) is answered as the sign-in.
      navigate: (to, _plan, response) =>
        (forms.signInThrough ?? []).some((path) => matchRoute(path, to.path.split('?')[0] ?? '') !== undefined) ? signIn(response) : answer.go(to.path),
      redirect: (url) => (/^(https?:\/\/|\/(?!\/))/i.test(url) && !/[\s\\]/.test(url) ? answer.go(url) : answer.unexpected()),
      step(step, plan) {
        const kind = plan.message ? `step:${step}:${plan.message.kind}` : `step:${step}`;
        const message = plan.message ? escapeHtml(answer.text(plan.message)) : '';
        const page = pages.answerPage(req, urlPath, lang, answers, kind, (markup) => markup.replaceAll(PAGE_SLOTS.message, message));
        // A step the build could not write ahead (it shows context of the answer): the app's page.
        return page ? answer.html(page) : answer.go(req.url);
      },
      resubmit: (_plan, again) => (again ? again() : answer.unexpected()),
      stay(plan) {
        if (plan.error) return answer.again('error', answer.text(plan.error));
        if (plan.warning) return answer.again('warning', answer.text(plan.warning));
        return answer.go(req.url);
      },
    },
    idle: answer.unexpected,
  };
}

/**
 * The step's probes first, as the app runs them while the visitor types (the sign-in's single sign-on
 * check decides which submit applies and hides the password): the context they leave, or the answer
 * when one shows an error.
 */
async function runProbes<A extends Answers>(post: FormPost<A>): Promise<{ ctx: Record<string, unknown> } | { end: FastifyReply }> {
  const { app, req, reply, form, data } = post;
  let ctx = post.form.context;
  for (const probe of form.spec.probes ?? []) {
    if (data[probe.field] === undefined || !probe.operation) continue;
    const scope = scopeOf(post, ctx);
    const result = await callOperation(app, req, reply, probe, resolveMapping(probe.body, scope));
    const { plan } = planFor(probe, result, form.outcomes, scope, true);
    ctx = plan.ctx;
    if (plan.error) return { end: answersTo(post).again('error', post.t(plan.error.key, plan.error.values)) };
  }
  return { ctx };
}

/** A post of a plain form: its probes, the required fields, then its submit as the app runs it. */
async function answerPost<A extends Answers>(post: FormPost<A>): Promise<FastifyReply> {
  const probed = await runProbes(post);
  if ('end' in probed) return probed.end;
  const missing = missingTexts(post.form.spec, post.data, scopeOf(post, probed.ctx), post.t);
  if (missing.length > 0) return answersTo(post).again('error', missing.join(' '));
  return runSubmit(plainFormHost(post, probed.ctx), post.data);
}

export function registerPlainForms<A extends Answers>(app: FastifyInstance, pages: PlainFormPages<A>): void {
  app.register(async (scope) => {
    await scope.register(formbody);
    // Other bodies are not read here: the answer is the same 404 or redirect as without one.
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

    scope.post('/*', async (req, reply) => {
      const urlPath = req.url.split('?')[0] ?? '/';
      const forms = pages.forms();
      const form = forms?.forms.find((candidate) => matchRoute(candidate.path, urlPath) !== undefined);
      if (form && forms) return answerPost(postOf(app, req, reply, pages, forms, form));
      // Another page of the app: back to it (it says that it needs JavaScript).
      if (pages.isPage(urlPath) && !urlPath.startsWith('/ws')) return reply.code(303).header('Location', req.url).send();
      return apiError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${urlPath}`);
    });
  });
}
