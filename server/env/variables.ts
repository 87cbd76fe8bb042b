/**
 * The schema of the server's environment: every variable it reads, once, with what it is, an example,
 * its default, whether it is a secret, and the check of a value on its own (a variable whose value only
 * makes sense with others, e.g. DATABASE_POOL_SIZE or TWILIO_FROM, is checked by its group's rule in
 * config.ts, delivery/config.ts or duo/config.ts). server/config.ts checks an
 * environment with it (each mistake one line that names the variable and why), then the rules that
 * bind several variables (delivery, Duo, the database, what production requires); .env.example is
 * rendered from it (server/env/example.ts, kept in step by a test); a variable of ours that is not
 * here is reported as unknown, with the nearest name.
 */
import { distance } from 'fastest-levenshtein';
import { ConfigError, MIN_SECRET_LENGTH, parseAllowedHosts, parseOrigins, parsePublicUrl, parseRpId, parseTrustProxy } from './parse.js';

export const GROUPS = [
  'Server',
  'Database',
  'Secrets',
  'Metrics',
  'Traces',
  'Email and texts',
  'Duo',
  'Bot check',
  'Help centre, academy and browser',
] as const;
export type Group = (typeof GROUPS)[number];

export interface Variable {
  name: string;
  group: Group;
  /** What it does, one line (.env.example, docs/deploy.md). */
  about: string;
  /** A value to copy (.env.example shows it commented out). */
  example: string;
  /** What holds when it is unset. */
  fallback?: string;
  /** Never shown back (in a message or a log). */
  secret?: boolean;
  /** The reason a set value is wrong, a sentence starting with the name; undefined when it is fine. */
  check?: (value: string) => string | undefined;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const wholeNumber =
  (name: string, min: number, max: number) =>
  (value: string): string | undefined =>
    /^\d+$/.test(value.trim()) && Number(value) >= min && Number(value) <= max
      ? undefined
      : `${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}.`;

const oneOf =
  (name: string, values: readonly string[]) =>
  (value: string): string | undefined =>
    values.includes(value) ? undefined : `${name} must be one of ${values.join(', ')}, not ${JSON.stringify(value)}.`;

const atLeast =
  (name: string, length: number, why: string) =>
  (value: string): string | undefined =>
    value.length >= length ? undefined : `${name} must be at least ${length} characters long (${why}).`;

/** A parser's ConfigError as a reason. */
const parsed =
  (parse: (value: string) => unknown) =>
  (value: string): string | undefined => {
    try {
      parse(value);
      return undefined;
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
  };

const SECRET_WHY = 'e.g. the output of `openssl rand -base64 48`';

export const VARIABLES: readonly Variable[] = [
  { name: 'PORT', group: 'Server', about: 'port to listen on', example: '8080', fallback: '8080', check: wholeNumber('PORT', 0, 65535) },
  {
    name: 'HOST',
    group: 'Server',
    about: 'address to listen on (0.0.0.0 in a container)',
    example: '0.0.0.0',
    fallback: '127.0.0.1',
    check: (v) => (v.trim() === '' ? 'HOST must be an address to listen on (127.0.0.1, 0.0.0.0, ::), not empty.' : undefined),
  },
  {
    name: 'NODE_ENV',
    group: 'Server',
    about: 'production: --demo is ignored and dev tools may not listen on a public address',
    example: 'production',
    fallback: 'development',
  },
  { name: 'APP_ENV', group: 'Server', about: 'production: /ws/app-config reports environment "production"', example: 'production', fallback: 'development' },
  {
    name: 'DEV_TOOLS',
    group: 'Server',
    about: '1: demo mode (demo tenant, /dev tools); 0: off whatever --demo says',
    example: '0',
    fallback: 'on only with --demo outside production',
    check: oneOf('DEV_TOOLS', ['0', '1']),
  },
  {
    name: 'PUBLIC_URL',
    group: 'Server',
    about: 'base URL of links in emails and texts (required outside demo mode)',
    example: 'https://signin.example.com',
    fallback: 'demo: http://localhost:{PORT}',
    check: parsed((v) => parsePublicUrl(v)),
  },
  {
    name: 'TLS_CERT_FILE',
    group: 'Server',
    about: 'PEM certificate (chain) file: with TLS_KEY_FILE the server speaks HTTPS and HTTP/2 itself (unset behind a proxy that does)',
    example: '/etc/frontdoor/tls/cert.pem',
    fallback: 'plain HTTP/1.1 (TLS at the proxy)',
  },
  {
    name: 'TLS_KEY_FILE',
    group: 'Server',
    about: 'PEM private key file of TLS_CERT_FILE',
    example: '/etc/frontdoor/tls/key.pem',
    fallback: 'plain HTTP/1.1 (TLS at the proxy)',
  },
  {
    name: 'TRUST_PROXY',
    group: 'Server',
    about: 'addresses or CIDR ranges of the proxies in front (their X-Forwarded-* are believed)',
    example: '10.0.0.0/8',
    check: parsed(parseTrustProxy),
  },
  {
    name: 'ALLOWED_HOSTS',
    group: 'Server',
    about: 'extra host names, addresses or CIDR ranges served (others get 421); e.g. the pod network for probes',
    example: 'signin.internal,10.0.0.0/8',
    check: parsed(parseAllowedHosts),
  },
  {
    name: 'WEBAUTHN_RP_ID',
    group: 'Server',
    about:
      "one passkey RP ID for every host: PUBLIC_URL's host or a parent domain of it; branded hosts outside it use it through /.well-known/webauthn (docs/mfa.md)",
    example: 'example.com',
    fallback: "demo: PUBLIC_URL's host; otherwise each host its own",
    check: parsed(parseRpId),
  },
  {
    name: 'SELF_REGISTRATION',
    group: 'Server',
    about: 'off: no registration without an invitation link',
    example: 'off',
    fallback: 'on',
    check: oneOf('SELF_REGISTRATION', ['on', 'off']),
  },
  {
    name: 'LOG_LEVEL',
    group: 'Server',
    about: 'log level of the JSON log (health probes and scrapes log at debug)',
    example: 'info',
    fallback: 'info',
    check: oneOf('LOG_LEVEL', LOG_LEVELS),
  },
  {
    name: 'FUNNEL_RETENTION_DAYS',
    group: 'Server',
    about: 'days funnel events (the studio funnel of each screen) are kept before housekeeping deletes them',
    example: '90',
    fallback: '90',
    check: wholeNumber('FUNNEL_RETENTION_DAYS', 1, 3650),
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    group: 'Server',
    about: 'how long SIGTERM waits for requests in flight',
    example: '10000',
    fallback: '10000',
    check: wholeNumber('SHUTDOWN_TIMEOUT_MS', 0, 600_000),
  },
  { name: 'STATIC_DIR', group: 'Server', about: 'the built app to serve', example: 'dist/app', fallback: 'dist/app' },
  {
    name: 'DB_PATH',
    group: 'Database',
    about: 'the embedded SQLite file (:memory: allowed), when DATABASE_URL is unset',
    example: 'data/app.sqlite',
    fallback: 'data/app.sqlite',
  },
  {
    name: 'DATABASE_URL',
    group: 'Database',
    about: 'PostgreSQL instead of SQLite (any number of instances on one database)',
    example: 'postgres://frontdoor:password@db.internal:5432/frontdoor?sslmode=verify-full',
    secret: true,
  },
  {
    name: 'DATABASE_POOL_SIZE',
    group: 'Database',
    about: 'PostgreSQL connections per instance',
    example: '10',
    fallback: '10',
  },
  {
    name: 'APP_SECRET',
    group: 'Secrets',
    about: 'master secret, the same on every instance (required outside demo mode)',
    example: 'replace-with-openssl-rand-base64-48',
    secret: true,
    check: atLeast('APP_SECRET', MIN_SECRET_LENGTH, SECRET_WHY),
  },
  {
    name: 'APP_SECRET_PREVIOUS',
    group: 'Secrets',
    about: 'the secret before a rotation: read only (unseals and verifies) until rotate-secret has run',
    example: '',
    secret: true,
    check: atLeast('APP_SECRET_PREVIOUS', MIN_SECRET_LENGTH, 'the APP_SECRET it replaces'),
  },
  {
    name: 'HELPCENTER_JWT_SECRET',
    group: 'Secrets',
    about: 'HS256 secret shared with the help centre and academy (required with their hosts)',
    example: '',
    secret: true,
    check: atLeast('HELPCENTER_JWT_SECRET', MIN_SECRET_LENGTH, SECRET_WHY),
  },
  {
    name: 'METRICS_TOKEN',
    group: 'Metrics',
    about: 'bearer token GET /metrics asks for on the main port',
    example: '',
    secret: true,
    check: atLeast('METRICS_TOKEN', 16, 'Prometheus sends it as a bearer token'),
  },
  {
    name: 'METRICS_PORT',
    group: 'Metrics',
    about: 'a second listener for /metrics, /healthz and /readyz only, without the Host allow-list (the cluster network)',
    example: '9464',
    check: wholeNumber('METRICS_PORT', 1, 65535),
  },
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    group: 'Traces',
    about: 'OpenTelemetry collector (OTLP/HTTP): set, every request and its statements are exported as traces (/v1/traces is added); unset, nothing is loaded',
    example: 'http://otel-collector:4318',
    check: parsed((v) => parsePublicUrl(v, 'OTEL_EXPORTER_OTLP_ENDPOINT')),
  },
  {
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    group: 'Traces',
    about: "headers of the exporter's requests, key=value pairs separated by commas (a hosted collector's key)",
    example: '',
    secret: true,
  },
  { name: 'OTEL_SERVICE_NAME', group: 'Traces', about: "the service's name in every span", example: 'frontdoor', fallback: 'frontdoor' },
  {
    name: 'DELIVERY',
    group: 'Email and texts',
    about: 'hold: start without a transport for email or texts; their messages are held (a warning at every start)',
    example: 'hold',
    check: oneOf('DELIVERY', ['hold']),
  },
  {
    name: 'SMTP_URL',
    group: 'Email and texts',
    about: 'the relay: smtp://host:587 (STARTTLS) or smtps://host:465',
    example: 'smtp://relay.example.com:587',
    secret: true,
  },
  { name: 'SMTP_USER', group: 'Email and texts', about: "the relay's user (with SMTP_PASSWORD)", example: '' },
  { name: 'SMTP_PASSWORD', group: 'Email and texts', about: "the relay's password", example: '', secret: true },
  { name: 'SMTP_CA_FILE', group: 'Email and texts', about: "PEM of a private CA that signs the relay's certificate", example: '' },
  { name: 'MAIL_FROM', group: 'Email and texts', about: 'sender of every email (a tenant may have its own)', example: 'Acme sign-in <no-reply@acme.example>' },
  { name: 'SMS_PROVIDER', group: 'Email and texts', about: 'twilio: texts go out through Twilio', example: 'twilio' },
  { name: 'TWILIO_ACCOUNT_SID', group: 'Email and texts', about: 'Account SID (AC + 32 hex)', example: '' },
  { name: 'TWILIO_AUTH_TOKEN', group: 'Email and texts', about: 'Auth Token', example: '', secret: true },
  { name: 'TWILIO_FROM', group: 'Email and texts', about: 'sender number (+14155550100) or alphanumeric id', example: '' },
  { name: 'TWILIO_MESSAGING_SERVICE_SID', group: 'Email and texts', about: 'or a Messaging Service (MG…) that picks the sender', example: '' },
  {
    name: 'TWILIO_API_BASE',
    group: 'Email and texts',
    about: "Twilio's API base (a regional edge)",
    example: 'https://api.twilio.com',
    fallback: 'https://api.twilio.com',
  },
  {
    name: 'DELIVERY_MAX_ATTEMPTS',
    group: 'Email and texts',
    about: 'tries before a message is failed',
    example: '8',
    fallback: '8',
  },
  {
    name: 'DELIVERY_LEASE_SECONDS',
    group: 'Email and texts',
    about: "how long a worker's claim on a message lasts",
    example: '60',
    fallback: '60',
  },
  { name: 'DUO_CLIENT_ID', group: 'Duo', about: 'Web SDK application: Client ID (a tenant may have its own)', example: '' },
  { name: 'DUO_CLIENT_SECRET', group: 'Duo', about: 'Client secret', example: '', secret: true },
  { name: 'DUO_API_HOST', group: 'Duo', about: 'API hostname (api-xxxxxxxx.duosecurity.com)', example: '' },
  { name: 'RECAPTCHA_SITE_KEY', group: 'Bot check', about: 'reCAPTCHA Enterprise instead of the proof of work (with the next two)', example: '' },
  { name: 'RECAPTCHA_PROJECT_ID', group: 'Bot check', about: 'Google Cloud project of the assessments', example: '' },
  { name: 'RECAPTCHA_API_KEY', group: 'Bot check', about: 'API key of the assessment API', example: '', secret: true },
  {
    name: 'RECAPTCHA_MIN_SCORE',
    group: 'Bot check',
    about: 'lowest accepted score',
    example: '0.5',
    fallback: '0.5',
    check: (v) => (/^\d+(\.\d+)?$/.test(v) && Number(v) <= 1 ? undefined : 'RECAPTCHA_MIN_SCORE must be a number from 0 to 1.'),
  },
  {
    name: 'RECAPTCHA_API_URL',
    group: 'Bot check',
    about: 'assessment API base',
    example: 'https://recaptchaenterprise.googleapis.com',
    fallback: 'https://recaptchaenterprise.googleapis.com',
    check: parsed((v) => parsePublicUrl(v, 'RECAPTCHA_API_URL')),
  },
  {
    name: 'HELPCENTER_HOST',
    group: 'Help centre, academy and browser',
    about: 'help-centre base URL',
    example: '',
    check: parsed((v) => parsePublicUrl(v, 'HELPCENTER_HOST')),
  },
  {
    name: 'HELPCENTER_GOVERNMENT_HOST',
    group: 'Help centre, academy and browser',
    about: 'government-cloud help-centre base URL',
    example: '',
    check: parsed((v) => parsePublicUrl(v, 'HELPCENTER_GOVERNMENT_HOST')),
  },
  {
    name: 'ACADEMY_HOSTS',
    group: 'Help centre, academy and browser',
    about: 'comma-separated academy origins',
    example: '',
    check: parsed((v) => parseOrigins(v, 'ACADEMY_HOSTS')),
  },
  {
    name: 'IDP_URL',
    group: 'Help centre, academy and browser',
    about: "an external IdP's URL (allowed in CSP form-action)",
    example: '',
    check: parsed((v) => parsePublicUrl(v, 'IDP_URL')),
  },
  { name: 'SENTRY_DSN', group: 'Help centre, academy and browser', about: 'error reporting from the browser', example: '' },
];

export const VARIABLE_NAMES: ReadonlySet<string> = new Set(VARIABLES.map((v) => v.name));

/** Prefixes of our variables: a name with one of them that the schema lacks is a typo more often than not. */
const OUR_PREFIXES =
  /^(APP|DB|DATABASE|DEV|SMTP|MAIL|SMS|TWILIO|DUO|METRICS|DELIVERY|RECAPTCHA|HELPCENTER|ACADEMY|TRUST|ALLOWED|PUBLIC|SHUTDOWN|LOG|SELF|STATIC|SENTRY|IDP|WEBAUTHN|FUNNEL)_/;

/** Variables set in env that look like ours but are not in the schema, each with the nearest known name. */
export function unknownVariables(env: NodeJS.ProcessEnv): Array<{ name: string; nearest: string }> {
  return Object.keys(env)
    .filter((name) => OUR_PREFIXES.test(name) && !VARIABLE_NAMES.has(name))
    .sort()
    .map((name) => ({ name, nearest: [...VARIABLE_NAMES].reduce((best, known) => (distance(name, known) < distance(name, best) ? known : best)) }));
}

/** The reasons the set values are wrong, each on its own, in the schema's order. */
export function checkValues(env: NodeJS.ProcessEnv): string[] {
  return VARIABLES.flatMap((variable) => {
    const value = env[variable.name];
    if (value === undefined || value === '' || !variable.check) return [];
    const reason = variable.check(value);
    return reason === undefined ? [] : [reason];
  });
}
