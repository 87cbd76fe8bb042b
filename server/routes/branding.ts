import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import type { BrandingRow } from '../services/branding.js';
import { DEFAULT_THEME } from '../services/lists.js';
import { requestHostname } from '../services/publicUrl.js';
import { operationRoute } from './operation.js';

export const BRANDING_ASSETS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../static/branding');

/** A branded-domain site names itself and hides the product's footer (as src/app/site.tsx decides). */
export function isBrandedRow(row: Pick<BrandingRow, 'browser_name' | 'login_logo'>): boolean {
  return Boolean(row.browser_name || row.login_logo);
}

/** What GET /branding/generalData answers for a host name; the app's pages carry the same (server/spa/html.ts). */
export function brandingAnswer(row: BrandingRow | undefined) {
  if (!row) return { isEnabled: true, theme: DEFAULT_THEME };
  if (!row.is_enabled) return { isEnabled: false };
  return {
    isEnabled: true,
    theme: row.theme ?? DEFAULT_THEME,
    ...(row.browser_name ? { browserName: row.browser_name } : {}),
    browserEnabled: row.browser_enabled === 1,
    ...(row.login_logo ? { loginLogo: row.login_logo } : {}),
    ...(row.browser_icon ? { browserIcon: row.browser_icon } : {}),
  };
}

/** GET /branding/generalData (by Host) and the branding images under /branding/assets/. */
const branding: FastifyPluginAsync = async (app) => {
  await app.register(fastifyStatic, {
    root: BRANDING_ASSETS_DIR,
    prefix: '/branding/assets/',
    decorateReply: false,
    cacheControl: true,
    maxAge: '1h',
  });

  operationRoute(app, 'brandingGeneralData', async (req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    reply.header('Vary', 'Host');
    return brandingAnswer(app.fd.branding.row(requestHostname(req)));
  });
};
export default branding;
