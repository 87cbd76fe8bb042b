/**
 * `npm run admin -- tenant-settings --organization <n> [--trusted-device-days <0…365>]`: the settings
 * of a tenant (table tenant_settings, defaults without a row). Today one: for how many days "Don't
 * ask again on this device" at /mfa skips the second factor (server/services/trustedDevices.ts);
 * 0 turns the choice off and stops honouring the browsers trusted so far.
 */
import { DEFAULT_TRUSTED_DEVICE_DAYS, MAX_TRUSTED_DEVICE_DAYS, setTrustedDeviceDays, trustedDeviceDays } from '../services/trustedDevices.js';
import { AdminError, EXIT, type AdminCommand } from './commands.js';

export const TENANT_COMMANDS: Record<string, AdminCommand> = {
  'tenant-settings': {
    summary: 'show or change the settings of a tenant (trusted-browser days)',
    usage: `tenant-settings --organization <number> [--trusted-device-days <0…${MAX_TRUSTED_DEVICE_DAYS}>]`,
    options: { organization: { type: 'string' }, 'trusted-device-days': { type: 'string' } },
    async run(ctx, values, out) {
      const raw = values.organization;
      if (typeof raw !== 'string' || !/^\d+$/.test(raw))
        throw new AdminError('--organization is required: the organisation number create-tenant printed', EXIT.usage);
      const organizationId = Number(raw);
      const days = values['trusted-device-days'];
      if (days !== undefined && (typeof days !== 'string' || !/^\d{1,3}$/.test(days) || Number(days) > MAX_TRUSTED_DEVICE_DAYS))
        throw new AdminError(`--trusted-device-days must be a whole number from 0 to ${MAX_TRUSTED_DEVICE_DAYS}, not ${JSON.stringify(days)}`, EXIT.usage);
      if (!(await ctx.db.get('SELECT id FROM users WHERE organization_id = ? LIMIT 1', [organizationId])))
        throw new AdminError(`there is no organisation ${organizationId} (create-tenant makes one)`, EXIT.conflict);
      if (typeof days === 'string') await setTrustedDeviceDays(ctx.db, organizationId, Number(days), ctx.now());
      const current = await trustedDeviceDays(ctx.db, organizationId);
      out(
        `organisation ${organizationId}: trusted browsers ${current === 0 ? 'off' : `skip the second factor for ${current} day(s)`}${current === DEFAULT_TRUSTED_DEVICE_DAYS && days === undefined ? ' (default)' : ''}`,
      );
    },
  },
};
