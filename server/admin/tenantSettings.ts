/**
 * `npm run admin -- tenant-settings --organization <n> [changes]`: the settings of a tenant (table
 * tenant_settings, defaults without a row), shown after any change:
 * - `--trusted-device-days <0…365>`: for how many days "Don't ask again on this device" at /mfa skips
 *   the second factor (server/services/trustedDevices.ts); 0 turns it off;
 * - `--mail-from "Name <address>"` (or `--no-mail-from`): the sender of the tenant's emails, through the
 *   deployment's relay (SMTP_URL);
 * - `--twilio-account-sid AC… --twilio-auth-token-stdin (--twilio-from +1… | --twilio-messaging-service-sid MG…)`
 *   (or `--no-twilio`): the tenant's own Twilio account for its texts;
 * - `--duo-client-id … --duo-client-secret-stdin --duo-api-host api-….duosecurity.com` (or `--no-duo`):
 *   the tenant's own Duo application (its redirect URI: {PUBLIC_URL}/duo/callback).
 * Credentials are read from standard input (one secret per run) and stored sealed like SSO keys
 * (APP_SECRET); delivery and Duo use a tenant's own settings in preference to the deployment's.
 */
import { checkDelivery, checkMailFrom } from '../delivery/config.js';
import { checkDuo } from '../duo/config.js';
import { getTenant, setTenantOwnSettings, setTrustedDeviceDays, tenantOwnSettings, type TenantOwnSettings } from '../db/tenants.js';
import { DEFAULT_TRUSTED_DEVICE_DAYS, MAX_TRUSTED_DEVICE_DAYS, trustedDeviceDays } from '../services/trustedDevices.js';
import { AdminError, EXIT, type AdminCommand, type AdminContext } from './commands.js';
import { sealerFor } from './sso.js';
import { organizationOption } from './tenants.js';

type Values = Record<string, string | boolean | undefined>;
const str = (values: Values, name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
const usage = (message: string) => new AdminError(message, EXIT.usage);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** The one secret a run reads from standard input (tests pass their own reader). */
export type SecretReader = () => Promise<string>;

function checked<T>(make: (problems: string[]) => T): T {
  const problems: string[] = [];
  const settings = make(problems);
  // The environment's names in the checks' sentences become this command's options.
  if (problems.length) throw usage(problems.join(' ').replace(/\b(TWILIO|DUO|MAIL)_[A-Z_]+\b/g, (name) => `--${name.toLowerCase().replaceAll('_', '-')}`));
  return settings;
}

/** The changes the options ask for: plain or sealed values, null to remove. */
async function changes(ctx: AdminContext, values: Values, readSecret: SecretReader): Promise<Partial<TenantOwnSettings>> {
  const stdinUsers = ['twilio-auth-token-stdin', 'duo-client-secret-stdin'].filter((n) => values[n] === true);
  if (stdinUsers.length > 1) throw usage('one secret per run: --twilio-auth-token-stdin and --duo-client-secret-stdin cannot be given together');
  const change: Partial<TenantOwnSettings> = {};
  const mailFrom = str(values, 'mail-from');
  if (mailFrom !== undefined) change.mailFrom = checked((problems) => (checkMailFrom(mailFrom, problems), mailFrom));
  if (values['no-mail-from']) change.mailFrom = null;
  if (values['no-twilio']) change.twilio = null;
  if (values['no-duo']) change.duo = null;
  const twilioGiven =
    ['twilio-account-sid', 'twilio-from', 'twilio-messaging-service-sid'].some((n) => values[n] !== undefined) || values['twilio-auth-token-stdin'];
  const duoGiven = ['duo-client-id', 'duo-api-host'].some((n) => values[n] !== undefined) || values['duo-client-secret-stdin'];
  if (!twilioGiven && !duoGiven) return change;
  const sealer = await sealerFor(ctx);
  if (twilioGiven) {
    if (!values['twilio-auth-token-stdin'])
      throw usage('--twilio-auth-token-stdin is required with the Twilio options: the Auth Token is read from standard input');
    const token = await readSecret();
    const sms = checked(
      (problems) =>
        checkDelivery(
          {
            SMS_PROVIDER: 'twilio',
            TWILIO_ACCOUNT_SID: str(values, 'twilio-account-sid'),
            TWILIO_AUTH_TOKEN: token,
            TWILIO_FROM: str(values, 'twilio-from'),
            TWILIO_MESSAGING_SERVICE_SID: str(values, 'twilio-messaging-service-sid'),
          },
          problems,
        ).sms,
    );
    if (!sms) throw usage('the Twilio options are incomplete');
    const { accountSid, authToken, from, messagingServiceSid } = sms;
    change.twilio = sealer.seal(JSON.stringify({ accountSid, authToken, ...(from ? { from } : {}), ...(messagingServiceSid ? { messagingServiceSid } : {}) }));
  }
  if (duoGiven) {
    if (!values['duo-client-secret-stdin'])
      throw usage('--duo-client-secret-stdin is required with the Duo options: the client secret is read from standard input');
    const secret = await readSecret();
    const duo = checked((problems) =>
      checkDuo({ DUO_CLIENT_ID: str(values, 'duo-client-id'), DUO_CLIENT_SECRET: secret, DUO_API_HOST: str(values, 'duo-api-host') }, problems),
    );
    if (!duo) throw usage('the Duo options are incomplete');
    change.duo = sealer.seal(JSON.stringify(duo));
  }
  return change;
}

/** What the tenant's settings are now, secrets left out. */
async function show(ctx: AdminContext, organizationId: number, out: (line: string) => void): Promise<void> {
  const days = await trustedDeviceDays(ctx.db, organizationId);
  const own = await tenantOwnSettings(ctx.db, organizationId);
  out(`organisation ${organizationId}:`);
  out(`  trusted browsers: ${days === 0 ? 'off' : `skip the second factor for ${days} day(s)`}${days === DEFAULT_TRUSTED_DEVICE_DAYS ? ' (default)' : ''}`);
  out(`  email sender: ${own.mailFrom ?? 'the deployment’s (MAIL_FROM)'}`);
  if (own.twilio === null && own.duo === null) {
    out('  texts: the deployment’s Twilio (SMS_PROVIDER); Duo: the deployment’s (DUO_*)');
    return;
  }
  const sealer = await sealerFor(ctx);
  const twilio =
    own.twilio === null ? undefined : (JSON.parse(sealer.unseal(own.twilio)) as { accountSid: string; from?: string; messagingServiceSid?: string });
  const duo = own.duo === null ? undefined : (JSON.parse(sealer.unseal(own.duo)) as { clientId: string; apiHost: string });
  out(
    `  texts: ${twilio ? `its own Twilio account ${twilio.accountSid}, from ${twilio.from ?? twilio.messagingServiceSid}` : 'the deployment’s Twilio (SMS_PROVIDER)'}`,
  );
  out(`  Duo: ${duo ? `its own application ${duo.clientId} at ${duo.apiHost}` : 'the deployment’s (DUO_*)'}`);
}

export function tenantSettingsCommand(readSecret: SecretReader = readStdin): AdminCommand {
  return {
    summary: 'show or change a tenant’s settings: trusted-browser days, its email sender, Twilio account, Duo application',
    usage: `tenant-settings --organization <number> [--trusted-device-days <0…${MAX_TRUSTED_DEVICE_DAYS}>] [--mail-from "Name <address>" | --no-mail-from]
                [--twilio-account-sid AC… --twilio-auth-token-stdin (--twilio-from +1… | --twilio-messaging-service-sid MG…) | --no-twilio]
                [--duo-client-id … --duo-client-secret-stdin --duo-api-host api-….duosecurity.com | --no-duo]`,
    options: {
      organization: { type: 'string' },
      'trusted-device-days': { type: 'string' },
      'mail-from': { type: 'string' },
      'no-mail-from': { type: 'boolean' },
      'twilio-account-sid': { type: 'string' },
      'twilio-auth-token-stdin': { type: 'boolean' },
      'twilio-from': { type: 'string' },
      'twilio-messaging-service-sid': { type: 'string' },
      'no-twilio': { type: 'boolean' },
      'duo-client-id': { type: 'string' },
      'duo-client-secret-stdin': { type: 'boolean' },
      'duo-api-host': { type: 'string' },
      'no-duo': { type: 'boolean' },
    },
    async run(ctx, values, out) {
      const organizationId = organizationOption(values);
      const days = values['trusted-device-days'];
      if (days !== undefined && (typeof days !== 'string' || !/^\d{1,3}$/.test(days) || Number(days) > MAX_TRUSTED_DEVICE_DAYS))
        throw usage(`--trusted-device-days must be a whole number from 0 to ${MAX_TRUSTED_DEVICE_DAYS}, not ${JSON.stringify(days)}`);
      if (!(await getTenant(ctx.db, organizationId)))
        throw new AdminError(`there is no organisation ${organizationId} (create-tenant makes one)`, EXIT.conflict);
      const change = await changes(ctx, values, readSecret);
      if (typeof days === 'string') await setTrustedDeviceDays(ctx.db, organizationId, Number(days), ctx.now());
      await setTenantOwnSettings(ctx.db, organizationId, change, ctx.now());
      await show(ctx, organizationId, out);
    },
  };
}

export const TENANT_COMMANDS: Record<string, AdminCommand> = { 'tenant-settings': tenantSettingsCommand() };
