/**
 * Branded hosts (table branding, migrations 001 and 004): one row per host name a tenant signs in on,
 * with its theme, names, logo and icon, and the public base URL of links in its emails. Read whole by
 * services/branding.ts's cache; written by the demo seed and `npm run admin -- create-tenant --host`.
 */
import type { Queryable } from './data.js';

export interface BrandingRow {
  hostname: string;
  is_enabled: number;
  theme: string | null;
  browser_name: string | null;
  browser_enabled: number;
  login_logo: string | null;
  browser_icon: string | null;
  public_url: string | null;
}

/** Every row, by host name. */
export async function brandingRows(q: Queryable): Promise<BrandingRow[]> {
  return q.all<BrandingRow>(
    'SELECT hostname, is_enabled, theme, browser_name, browser_enabled, login_logo, browser_icon, public_url FROM branding ORDER BY hostname',
  );
}

/** What a message needs of an enabled host's brand (delivery/email/brand.ts); undefined when the host has none or it is disabled. */
export async function enabledBrand(q: Queryable, hostname: string): Promise<Pick<BrandingRow, 'browser_name' | 'login_logo' | 'public_url'> | undefined> {
  return q.get<Pick<BrandingRow, 'browser_name' | 'login_logo' | 'public_url'>>(
    'SELECT browser_name, login_logo, public_url FROM branding WHERE hostname = ? AND is_enabled = 1',
    [hostname],
  );
}

export async function isBrandedHost(q: Queryable, hostname: string): Promise<boolean> {
  return (await q.get('SELECT hostname FROM branding WHERE hostname = ?', [hostname])) !== undefined;
}

export async function insertBranding(q: Queryable, row: BrandingRow): Promise<void> {
  await q.run(
    `INSERT INTO branding (hostname, is_enabled, theme, browser_name, browser_enabled, login_logo, browser_icon, public_url)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [row.hostname, row.is_enabled, row.theme, row.browser_name, row.browser_enabled, row.login_logo, row.browser_icon, row.public_url],
  );
}
