/**
 * `npm run admin -- users list|show|disable|enable|delete`: the accounts. Disable signs the account out
 * and refuses its sign-ins (APP_USER_NOT_ENABLED, as for any disabled account); enable gives it back
 * (not while its tenant is disabled); delete asks for the email again (--confirm) and removes the
 * account with its codes, sessions, methods and passkeys.
 */
import { accountDetails, type AccountRow, deleteAccount, endSessions, findAccount, listAccounts, normalizeEmail, setAccountState } from '../db/accounts.js';
import { tenantDisabled } from '../db/tenants.js';
import { AdminError, EXIT, type AdminCommand, type AdminContext } from './commands.js';

type Values = Record<string, string | boolean | undefined>;

const STATES = ['active', 'disabled', 'suspended', 'inactive'];
const line = (a: AccountRow) =>
  `${a.email.padEnd(32)} ${a.state}${a.disabledWithTenant ? ' (with its tenant)' : ''}  ${a.userType}${a.sysadmin ? ' sysadmin' : ''}  organisation ${a.organizationId ?? '-'}  user ${a.id}${a.name ? `  ${a.name}` : ''}`;

async function accountOf(ctx: AdminContext, values: Values): Promise<AccountRow> {
  if (typeof values.email !== 'string') throw new AdminError('--email is required', EXIT.usage);
  const account = await findAccount(ctx.db, normalizeEmail(values.email));
  if (!account) throw new AdminError(`there is no user with the email ${normalizeEmail(values.email)}`, EXIT.conflict);
  return account;
}

function listFilter(values: Values): { organizationId?: number; state?: string; limit: number } {
  const { organization, state, limit } = values;
  if (organization !== undefined && (typeof organization !== 'string' || !/^\d+$/.test(organization)))
    throw new AdminError('--organization must be an organisation number', EXIT.usage);
  if (state !== undefined && (typeof state !== 'string' || !STATES.includes(state)))
    throw new AdminError(`--state must be one of ${STATES.join(', ')}`, EXIT.usage);
  if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,6}$/.test(limit) || Number(limit) === 0))
    throw new AdminError('--limit must be a whole number from 1', EXIT.usage);
  return {
    ...(organization !== undefined ? { organizationId: Number(organization) } : {}),
    ...(typeof state === 'string' ? { state } : {}),
    limit: typeof limit === 'string' ? Number(limit) : 200,
  };
}

const ACTIONS: Record<string, (ctx: AdminContext, values: Values, out: (l: string) => void) => Promise<void>> = {
  async list(ctx, values, out) {
    const filter = listFilter(values);
    const accounts = await listAccounts(ctx.db, filter);
    for (const a of accounts) out(line(a));
    out(`${accounts.length} user(s)${accounts.length === filter.limit ? ` (the first ${filter.limit}: --limit for more)` : ''}`);
  },
  async show(ctx, values, out) {
    const account = await accountOf(ctx, values);
    const d = await accountDetails(ctx.db, account.id, ctx.now());
    out(line(account));
    out(`  created ${new Date(account.createdAt).toISOString()}`);
    out(`  second factor: ${d.methods.length ? d.methods.join(', ') : 'none'}; passkeys ${d.passkeys}; recovery codes left ${d.recoveryCodesLeft}`);
    out(`  single sign-on: ${d.sso ?? 'no'}; open sessions ${d.sessions}`);
  },
  async disable(ctx, values, out) {
    const account = await accountOf(ctx, values);
    const now = ctx.now();
    const sessions = await ctx.db.tx(async (t) => {
      if (!(await setAccountState(t, account.id, 'disabled', now))) throw new AdminError(`${account.email} is disabled already`, EXIT.conflict);
      return endSessions(t, account.id, now);
    });
    out(`${account.email} disabled: ${sessions} session(s) ended; its sign-ins are refused until users enable`);
  },
  async enable(ctx, values, out) {
    const account = await accountOf(ctx, values);
    if (await tenantDisabled(ctx.db, account.organizationId))
      throw new AdminError(`organisation ${account.organizationId} is disabled: tenants enable --organization ${account.organizationId} first`, EXIT.conflict);
    if (account.state !== 'disabled') throw new AdminError(`${account.email} is ${account.state}, not disabled`, EXIT.conflict);
    await ctx.db.tx((t) => setAccountState(t, account.id, 'active', ctx.now()));
    out(`${account.email} enabled`);
  },
  async delete(ctx, values, out) {
    const account = await accountOf(ctx, values);
    if (values.confirm === undefined || normalizeEmail(String(values.confirm)) !== account.email)
      throw new AdminError(`deleting ${account.email} is for good: repeat the email to confirm, --confirm ${account.email}`, EXIT.usage);
    await ctx.db.tx((t) => deleteAccount(t, account.id));
    out(`${account.email} (user ${account.id}) deleted, with its codes, sessions, methods and passkeys`);
  },
};

export const USERS_COMMANDS: Record<string, AdminCommand> = {
  users: {
    summary: 'list (--organization, --state), show, disable, enable or delete (--confirm <email>) users',
    usage:
      'users list [--organization <n>] [--state active|disabled|suspended|inactive] [--limit 200] | users show|disable|enable --email <email> | users delete --email <email> --confirm <email>',
    options: { organization: { type: 'string' }, state: { type: 'string' }, limit: { type: 'string' }, email: { type: 'string' }, confirm: { type: 'string' } },
    actions: Object.keys(ACTIONS),
    run: (ctx, values, out) => (ACTIONS[String(values.action)] as (typeof ACTIONS)['list'])(ctx, values, out),
  },
};
