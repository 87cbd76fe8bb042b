import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { CheckedEdit } from '../../../catalogue/studio-contract.js';
import { apiError } from '../../errors.js';
import { ROOT } from '../../paths.js';
import { whole, type StudioContext } from './context.js';
import { PICTURE_SCHEMES, PICTURE_WIDTHS } from './describe.js';
import { readCatalogueFiles } from './files.js';
import { asTexts, type FileTexts } from './history.js';
import { createPictureRenderer } from '../../../tooling/pictures.js';

/**
 * Before/after pictures of the screen states a change affects, with the screenshot grid's machinery:
 * Chromium (tooling/browser.ts finds it) driven by Playwright in a child process (tooling/pictures.ts starts tooling/pictures-child.ts,
 * as tooling/publish.ts starts publish-child.ts for the app's rebuild). The child opens the studio page in its
 * picture mode (studio/picture), which renders the real engine on one side of the change at one width
 * and colour scheme; the PNG is kept under build/studio-pictures/, named by the sha256 of everything
 * that makes it (the side's files, the catalogue on disk, the state, the size, the studio build).
 *   GET /dev/studio/api/pictures?source=change:<id>|compare:<a>:<b>&side=before|after&screen=&step=&lang=&width=&scheme=
 *   GET /dev/studio/api/picture-view?…   the checked screen of one side, for the picture page (a person's
 *                                        session, or the ticket of this server's renderer)
 */
const SOURCE = /^(change:[1-9][0-9]{0,9}|compare:[1-9][0-9]{0,9}:[1-9][0-9]{0,9})$/;
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const LANG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;

export interface PictureParams {
  source: string;
  side: 'before' | 'after';
  screen: string;
  step: string;
  lang: string;
  width: number;
  scheme: string;
  /** Changes with the draft, so the browser asks again for a draft saved anew. */
  revision?: number;
}

export function pictureUrl(p: PictureParams): string {
  const query = new URLSearchParams({
    source: p.source,
    side: p.side,
    screen: p.screen,
    step: p.step,
    lang: p.lang,
    width: String(p.width),
    scheme: p.scheme,
    ...(p.revision !== undefined ? { v: String(p.revision) } : {}),
  });
  return `/dev/studio/api/pictures?${query.toString()}`;
}

type Query = Record<string, string | undefined>;

function paramsOf(query: Query): PictureParams | undefined {
  const { source = '', side = '', screen = '', step = '', lang = '', scheme = '' } = query;
  const width = Number(query.width);
  if (!SOURCE.test(source) || (side !== 'before' && side !== 'after') || !NAME.test(screen) || !NAME.test(step) || !LANG.test(lang)) return undefined;
  if (!(PICTURE_WIDTHS as readonly number[]).includes(width) || !(PICTURE_SCHEMES as readonly string[]).includes(scheme)) return undefined;
  return { source, side, screen, step, lang, width, scheme };
}

/** One side's files (those the source changes), or undefined when the change or version does not exist. */
async function sideFiles(ctx: StudioContext, source: string, side: 'before' | 'after'): Promise<FileTexts | undefined> {
  const [kind, a, b] = source.split(':');
  if (kind === 'change') {
    const change = await ctx.changes.get(whole(a) ?? 0);
    return change ? (side === 'before' ? change.before : change.after) : undefined;
  }
  const [from, to] = [whole(a), whole(b)];
  const latest = await ctx.history.latest();
  if (from === undefined || to === undefined || from > latest || to > latest) return undefined;
  const sides = await ctx.history.sides(from, to);
  return side === 'before' ? sides.before : sides.after;
}

export function registerPictures(app: FastifyInstance, ctx: StudioContext, bundleDir: string): void {
  const renderer = createPictureRenderer(ROOT);
  const cacheDir = path.join(ctx.root, 'build/studio-pictures');
  const inFlight = new Map<string, Promise<void>>();
  /** The last few checked views, by the side's files, the files on disk and the screen. */
  const views = new Map<string, Promise<CheckedEdit>>();
  app.addHook('onClose', async () => renderer.close());

  app.get<{ Querystring: Query }>('/dev/studio/api/picture-view', async (req, reply) => {
    const ticket = renderer.ticket();
    const byRenderer = ticket !== undefined && req.query.ticket === ticket;
    if (!byRenderer && !(await ctx.signedIn(req, reply))) return reply;
    const params = paramsOf({ ...req.query, width: String(PICTURE_WIDTHS[0]), scheme: PICTURE_SCHEMES[0] });
    const files = params ? await sideFiles(ctx, params.source, params.side) : undefined;
    if (!params || !files) return apiError(reply, 404, 'NOT_FOUND', 'No such change, version or screen state');
    reply.header('Cache-Control', 'no-store');
    // The pictures of one side ask for the same view four times (two widths, two schemes): checked once.
    const key = crypto
      .createHash('sha256')
      .update(JSON.stringify([Object.entries(files).sort(), readCatalogueFiles(ctx.root), params.screen]))
      .digest('hex');
    const known = views.get(key) ?? ctx.checkFiles(asTexts(files), params.screen);
    views.delete(key);
    views.set(key, known);
    for (const old of [...views.keys()].slice(0, Math.max(0, views.size - 8))) views.delete(old);
    return known;
  });

  app.get<{ Querystring: Query }>('/dev/studio/api/pictures', async (req, reply) => {
    if (!(await ctx.signedIn(req, reply))) return reply;
    const params = paramsOf(req.query);
    const files = params ? await sideFiles(ctx, params.source, params.side) : undefined;
    if (!params || !files) return apiError(reply, 404, 'NOT_FOUND', 'No such change, version or screen state');
    const studioBuild = path.join(bundleDir, 'index.html');
    const key = crypto
      .createHash('sha256')
      .update(
        JSON.stringify([Object.entries(files).sort(), readCatalogueFiles(ctx.root), params, fs.existsSync(studioBuild) ? fs.statSync(studioBuild).mtimeMs : 0]),
      )
      .digest('hex');
    const out = path.join(cacheDir, `${key}.png`);
    if (!fs.existsSync(out)) {
      const address = app.server.address() as AddressInfo | null;
      if (!address || typeof address !== 'object') return apiError(reply, 503, 'PICTURES_UNAVAILABLE', 'Pictures need the server to listen on a port.');
      fs.mkdirSync(cacheDir, { recursive: true });
      const view = new URLSearchParams({ picture: '1', source: params.source, side: params.side, screen: params.screen, step: params.step, lang: params.lang });
      const taking =
        inFlight.get(key) ??
        renderer.take((ticket) => ({
          url: `http://127.0.0.1:${address.port}/dev/studio/?${view.toString()}&ticket=${encodeURIComponent(ticket)}`,
          width: params.width,
          scheme: params.scheme,
          out,
        }));
      inFlight.set(key, taking);
      try {
        await taking;
      } catch (error) {
        return apiError(reply, 503, 'PICTURES_UNAVAILABLE', `The picture could not be taken: ${(error as Error).message}`);
      } finally {
        inFlight.delete(key);
      }
    }
    return reply.header('Cache-Control', 'private, max-age=3600').type('image/png').send(fs.readFileSync(out));
  });
}
