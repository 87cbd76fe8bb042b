/**
 * The screen studio (registered with the other /dev tools, in demo mode only): its own bundle
 * (./bundle.ts), its people, who sign in on the product's sign-in page (./people.ts, ./api-session.ts),
 * drafts and their review
 * (./changes.ts, ./api-changes.ts), the catalogue's versions and rollback (./history.ts,
 * ./api-versions.ts), the semantic diff and the before/after pictures (./describe.ts, ./pictures.ts)
 * and the rebuild of the running app after a publish (./publish.ts):
 *   GET  /dev/studio                   the studio page (its own, looser CSP: see STUDIO_CSP)
 *   GET  /dev/studio/assets/*          its bundle
 *   GET  /dev/studio/api/catalogue     screen files and locale files as text, languages, the meta-schema
 *   POST /dev/studio/api/preview       check an edit; the resolved screen to render
 *   GET  /dev/studio/api/publish       whether the running app has the published catalogue yet
 *   POST /dev/studio/api/publish       rebuild the running app from the files on disk
 * Every edit goes through the build's catalogue check (./check.ts) with the edited texts in place of
 * the files on disk; nothing reaches the files but an approved change (its author's draft, approved by
 * another person) or a rollback, each checked again and recorded as a version in the database, and
 * only files the catalogue has (or a language's copy of one): any other path is refused with 403.
 * Texts missing in some languages but present in the default one are pending translations: listed,
 * never blocking. Everything but the page, its assets and GET …/me asks for a signed-in studio person.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiError } from '../../errors.js';
import { ROOT } from '../../paths.js';
import { registerChanges } from './api-changes.js';
import { registerExperiments } from './api-experiments.js';
import { registerRollout } from './api-rollout.js';
import { registerSession } from './api-session.js';
import { registerVersions } from './api-versions.js';
import { registerBundle } from './bundle.js';
import { createChanges } from './changes.js';
import type { StudioContext } from './context.js';
import { isRefusal, listCatalogue, parseEdit, type Edit, type EditBody } from './files.js';
import { createHistory } from './history.js';
import { createPeople, signedIn } from './people.js';
import { registerPictures } from './pictures.js';
import { publisher } from '../../../tooling/publish.js';

export { STUDIO_CSP } from './bundle.js';
export type { PublishStatus } from '../../../catalogue/studio-contract.js';

const REPO = ROOT;

export interface StudioOptions {
  /** The project whose screens/ and locales/ are read and written (default: this repository). */
  root?: string;
  /** The studio build (default <root>/dist/studio). */
  bundleDir?: string;
  /**
   * The built app the server serves, rebuilt after each save (default: the server's own staticDir).
   * false: none to rebuild (a studio on a copy of the catalogue); the studio says what to run instead.
   */
  appDir?: string | false;
}

/** How often an instance looks for versions another instance published (its files then follow). */
const FOLLOW_MS = 5000;

function sameOrigin(req: FastifyRequest): boolean {
  // Actions write files and records: refuse cross-site calls even though the API takes JSON only.
  const origin = req.headers.origin;
  return origin === undefined || origin === `${req.protocol}://${req.headers.host}`;
}

/** The screens and locale files as text, the languages and the meta-schema: what the studio edits. */
function catalogueTexts(root: string) {
  const listing = listCatalogue(root);
  const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
  return {
    screens: listing.screens.map((id) => ({ id, text: read(`screens/${id}.json`) })),
    locales: Object.fromEntries(
      Object.entries(listing.locales).flatMap(([lang, files]) => files.map((file) => [`${lang}/${file}`, read(`locales/${lang}/${file}`)])),
    ),
    languages: Object.keys(listing.locales),
    metaSchema: JSON.parse(read('schemas/screen.schema.json')) as unknown,
  };
}

export function studioRoutes(options: StudioOptions = {}): FastifyPluginAsync {
  const root = path.resolve(options.root ?? REPO);
  const bundle = path.resolve(options.bundleDir ?? path.join(root, 'dist/studio'));

  return async (app: FastifyInstance) => {
    // The studio runs inside the server (server/app.ts decorates app.fd): its database, its clock and
    // its sessions (studio people sign in on the product's sign-in page); the app to rebuild is the one it serves.
    if (!app.hasDecorator('fd')) throw new Error("the studio runs inside the server (app.fd): its people sign in on the product's sign-in page");
    const fd = app.fd;
    const { data } = fd;
    const publish = publisher(root, options.appDir === false ? undefined : (options.appDir ?? fd.config.staticDir));
    const people = createPeople(fd);
    await people.seedDemo();
    // Loaded on first use: the check pulls in ajv, jsonc-parser and the catalogue's modules, which the
    // rest of the server (and a production server, which has no studio) does not need.
    const check = () => import('./check.js');
    const ctx: StudioContext = {
      root,
      data,
      now: fd.now,
      people,
      changes: createChanges(data, fd.now),
      history: createHistory(data, root, fd.now, () => publish.request()),
      publish,
      checkFiles: async (files, screenId) => (await check()).checkFiles(root, files, screenId),
      checkEdit: async (edit: Edit) => (await check()).checkEdit(root, edit),
      signedIn: (req, reply) => signedIn(people, req, reply),
    };
    registerBundle(app, bundle);

    // Actions are refused from other sites (the full server's CSRF hook does the same for the whole API).
    app.addHook('onRequest', async (req, reply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD' && req.url.startsWith('/dev/studio/api/') && !sameOrigin(req))
        return apiError(reply, 403, 'FORBIDDEN', 'Cross-origin studio call refused');
    });

    // Follow the versions other instances publish: their files are written here and the app rebuilt.
    let followed: number | undefined;
    const follow = setInterval(() => {
      void ctx.history
        .latest()
        .then(async (latest) => {
          if (followed !== undefined && latest !== followed && latest !== ctx.history.applied()) await ctx.history.exclusive(() => ctx.history.sync());
          followed = latest;
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'studio: could not follow the catalogue history'));
    }, FOLLOW_MS);
    follow.unref();
    app.addHook('onClose', async () => clearInterval(follow));

    registerSession(app, ctx);
    registerChanges(app, ctx);
    registerVersions(app, ctx);
    registerExperiments(app, ctx);
    registerRollout(app, ctx);
    registerPictures(app, ctx, bundle);

    app.get('/dev/studio/api/catalogue', async (req, reply) => {
      if (!(await ctx.signedIn(req, reply))) return reply;
      reply.header('Cache-Control', 'no-store');
      // The files this server runs are those of the last version (another instance's publish included).
      await ctx.history.exclusive(() => ctx.history.sync());
      return catalogueTexts(root);
    });

    app.post<{ Body: EditBody }>('/dev/studio/api/preview', { bodyLimit: 4 * 1024 * 1024 }, async (req, reply) => {
      if (!(await ctx.signedIn(req, reply))) return reply;
      // parseEdit checks every member: the body is untrusted JSON of any shape.
      const edit = parseEdit(req.body, listCatalogue(root));
      if (isRefusal(edit)) return apiError(reply, edit.status, edit.error, edit.message);
      reply.header('Cache-Control', 'no-store');
      return ctx.checkEdit(edit);
    });

    app.get('/dev/studio/api/publish', async (req, reply) => {
      if (!(await ctx.signedIn(req, reply))) return reply;
      reply.header('Cache-Control', 'no-store');
      return publish.status();
    });
    app.post('/dev/studio/api/publish', async (req, reply) => {
      if (!(await ctx.signedIn(req, reply))) return reply;
      return publish.request();
    });
  };
}

export default studioRoutes();
