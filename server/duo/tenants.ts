/**
 * A tenant's own Duo application (`npm run admin -- tenant-settings --duo-…`, sealed in
 * tenant_settings.duo) before the deployment's (DUO_*): read at each Duo prompt, so a change made with
 * the admin command holds on every instance at once.
 */
import type { Database } from '../db/data.js';
import { tenantOwnSettings } from '../db/tenants.js';
import type { DuoSettings } from './config.js';
import type { DuoSettingsFor } from './universal.js';

export function tenantDuo(data: Database, unseal: (stored: string) => string, deployment: DuoSettings | undefined): DuoSettingsFor {
  return async (organizationId) => {
    const own = await tenantOwnSettings(data, organizationId);
    return own.duo === null ? deployment : (JSON.parse(unseal(own.duo)) as DuoSettings);
  };
}
