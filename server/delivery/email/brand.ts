/**
 * The brand a message speaks for, from the branding row of the host the visitor used (the same rows as
 * GET /branding/generalData): its name (browser_name), logo (login_logo) and public URL. A host without
 * a row, or a disabled one, gets the product's name and PUBLIC_URL. The Host header only selects among
 * configured rows; links never come from it (services/publicUrl.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { enabledBrand } from '../../db/branding.js';
import type { Queryable } from '../../db/data.js';
import { ROOT } from '../../paths.js';
import type { Brand } from './compose.js';
import { DEFAULT_LANGUAGE } from './texts.js';

/** The product's name when a host has no brand of its own: the app's default title (locales/<default language>/app.json). */
export const DEFAULT_BRAND_NAME: string = (() => {
  const app = JSON.parse(fs.readFileSync(path.join(ROOT, 'locales', DEFAULT_LANGUAGE, 'app.json'), 'utf8')) as { defaultTitle?: unknown };
  return typeof app.defaultTitle === 'string' ? app.defaultTitle : 'Front Door';
})();

/** '{PORT}' in a branding URL is the server's port (the demo's branded.localhost). */
function withPort(url: string, port: number): string {
  return url.replaceAll('{PORT}', String(port)).replace(/\/+$/, '');
}

export async function brandFor(q: Queryable, hostname: string, defaults: { publicUrl: string; publicPort: number }): Promise<Brand> {
  const row = await enabledBrand(q, hostname);
  const publicUrl = row?.public_url ? withPort(row.public_url, defaults.publicPort) : defaults.publicUrl;
  const logo = row?.login_logo ?? undefined;
  return {
    name: row?.browser_name || DEFAULT_BRAND_NAME,
    publicUrl,
    ...(logo ? { logoUrl: /^https:\/\//.test(logo) ? logo : `${publicUrl}${logo.startsWith('/') ? '' : '/'}${logo}` } : {}),
  };
}
