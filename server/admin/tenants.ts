/**
 * `npm run admin -- tenants list|show|disable|enable|delete`: the tenants (organisations) of the
 * server. Disabling one disables its active users (sign-in refused as for a disabled account, their
 * sessions ended) and enabling gives back exactly those; delete asks for the tenant's name again
 * (--confirm) and removes its users, their codes, sessions and methods, its SSO connections and settings.
 */
import { endSessions } from '../db/accounts.js';
import { deleteTenant, disableTenant, enableTenant, getTenant, listTenants, type TenantRow } from '../db/tenants.js';
import { AdminError, EXIT, type AdminCommand, type AdminContext } from './commands.js';

const shown = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
const line = (t: TenantRow) =>
  `organisation ${String(t.organizationId).padEnd(5)} ${JSON.stringify(t.name ?? '')} — ${t.users} user(s), ${t.active} active${t.disabledAt !== null ? `; DISABLED since ${shown(t.disabledAt)}` : ''}`;

export function organizationOption(values: Record<string, string | boolean | undefined>): number {
  const raw = values.organization;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw))
    throw new AdminError('--organization is required: the organisation number (tenants list shows them)', EXIT.usage);
  return Number(raw);
}

async function tenantOf(ctx: AdminContext, values: Record<string, string | boolean | undefined>): Promise<TenantRow> {
  const organizationId = organizationOption(values);
  const tenant = await getTenant(ctx.db, organizationId);
  if (!tenant) throw new AdminError(`there is no organisation ${organizationId} (tenants list shows them)`, EXIT.conflict);
  return tenant;
}

const ACTIONS: Record<string, (ctx: AdminContext, values: Record<string, string | boolean | undefined>, out: (l: string) => void) => Promise<void>> = {
  async list(ctx, _values, out) {
    const tenants = await listTenants(ctx.db);
    for (const t of tenants) out(line(t));
    out(`${tenants.length} tenant(s)`);
  },
  async show(ctx, values, out) {
    out(line(await tenantOf(ctx, values)));
    out('  its users: users list --organization <n>; its settings: tenant-settings --organization <n>; its SSO: sso-list --organization <n>');
  },
  async disable(ctx, values, out) {
    const tenant = await tenantOf(ctx, values);
    const now = ctx.now();
    const users = await ctx.db.tx(async (t) => {
      const ids = await disableTenant(t, tenant.organizationId, now);
      for (const id of ids) await endSessions(t, id, now);
      return ids.length;
    });
    out(`organisation ${tenant.organizationId} disabled: ${users} active user(s) disabled and signed out (tenants enable gives them back)`);
  },
  async enable(ctx, values, out) {
    const tenant = await tenantOf(ctx, values);
    const users = await ctx.db.tx((t) => enableTenant(t, tenant.organizationId, ctx.now()));
    out(`organisation ${tenant.organizationId} enabled: ${users} user(s) active again`);
  },
  async delete(ctx, values, out) {
    const tenant = await tenantOf(ctx, values);
    const name = tenant.name ?? String(tenant.organizationId);
    if (values.confirm !== name)
      throw new AdminError(
        `deleting organisation ${tenant.organizationId} removes its ${tenant.users} user(s) for good: repeat its name to confirm, --confirm ${JSON.stringify(name)}`,
        EXIT.usage,
      );
    const users = await ctx.db.tx((t) => deleteTenant(t, tenant.organizationId));
    out(
      `organisation ${tenant.organizationId} (${JSON.stringify(name)}) deleted: ${users} user(s), their codes, sessions and methods, its SSO connections and settings`,
    );
  },
};

export const TENANTS_COMMANDS: Record<string, AdminCommand> = {
  tenants: {
    summary: 'list, show, disable, enable or delete (--confirm <its name>) a tenant',
    usage: 'tenants list | tenants show|disable|enable --organization <n> | tenants delete --organization <n> --confirm "<its name>"',
    options: { organization: { type: 'string' }, confirm: { type: 'string' } },
    actions: Object.keys(ACTIONS),
    run: (ctx, values, out) => (ACTIONS[String(values.action)] as (typeof ACTIONS)['list'])(ctx, values, out),
  },
};
