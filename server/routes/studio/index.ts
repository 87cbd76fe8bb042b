/**
 * The screen studio (registered with the other /dev tools, in demo mode only): its own bundle
 * (./bundle.ts), a small API over the catalogue (below), the files it may write (./files.ts) and
 * the rebuild of the running app after a save (./publish.ts):
 *   GET  /dev/studio                   the studio page (its own, looser CSP: see STUDIO_CSP)
 *   GET  /dev/studio/assets/*          its bundle
 *   GET  /dev/studio/api/catalogue     screen files and locale files as text, languages, the meta-schema
 *   POST /dev/studio/api/preview       check an edit; the resolved screen to render
 *   POST /dev/studio/api/save          the same check, then write the edited files (only without problems)
 *   GET  /dev/studio/api/publish       whether the running app has the saved catalogue yet
 *   POST /dev/studio/api/publish       rebuild the running app from the files on disk
 * Every edit goes through the build's catalogue check (./check.ts) with the edited texts in place of
 * the files on disk; the files are written only when the catalogue has no problems, and only files
 * the catalogue has (or a language's copy of one): any other path is refused with 403. Texts missing
 * in some languages but present in the default one are pending translations: listed, never blocking.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../errors.js';
import { ROOT } from '../../paths.js';
import { registerBundle } from './bundle.js';
import { isRefusal, listCatalogue, parseEdit, writeEdit, type Edit, type EditBody } from './files.js';
import { publisher } from './publish.js';

export { STUDIO_CSP } from './bundle.js';
export type { PublishStatus } from '../../../catalogue/studio-contract.js';

const REPO = ROOT;

export interface StudioOptions {
  /** The project whose screens/ and locales/ are read and written (default: this repository). */
  root?: string;
  /** The studio build (default <root>/dist/studio). */
  bundleDir?: string;
  /**
   * The built app the server serves, rebuilt after each save (default: the server's own staticDir,
   * when it runs inside the full app). Without one the studio says what to run instead.
   */
  appDir?: string;
}

function sameOrigin(req: FastifyRequest): boolean {
  // The save endpoint writes files: refuse cross-site posts even though the API takes JSON only.
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
    // Inside the full server the app to rebuild is the one it serves (server/app.ts decorates app.fd).
    const publish = publisher(root, options.appDir ?? (app.hasDecorator('fd') ? app.fd.config.staticDir : undefined));
    registerBundle(app, bundle);

    app.get('/dev/studio/api/catalogue', async (_req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return catalogueTexts(root);
    });

    /** The edit of a request (parseEdit checks every member: the body is untrusted JSON of any shape), or the refusal sent. */
    const editOf = (req: FastifyRequest<{ Body: EditBody }>, reply: FastifyReply) => {
      const edit = parseEdit(req.body, listCatalogue(root));
      if (!isRefusal(edit)) return edit;
      void apiError(reply, edit.status, edit.error, edit.message);
      return undefined;
    };

    // Loaded on first use: the check pulls in ajv, jsonc-parser and the catalogue's modules, which the
    // rest of the server (and a production server, which has no studio) does not need.
    const checkEdit = async (edit: Edit) => (await import('./check.js')).checkEdit(root, edit);

    const bodyLimit = 4 * 1024 * 1024;
    app.post<{ Body: EditBody }>('/dev/studio/api/preview', { bodyLimit }, async (req, reply) => {
      const edit = editOf(req, reply);
      if (!edit) return reply;
      reply.header('Cache-Control', 'no-store');
      return checkEdit(edit);
    });

    app.post<{ Body: EditBody }>('/dev/studio/api/save', { bodyLimit }, async (req, reply) => {
      if (!sameOrigin(req)) return apiError(reply, 403, 'FORBIDDEN', 'Cross-origin save refused');
      const edit = editOf(req, reply);
      if (!edit) return reply;
      const { problems, pending } = await checkEdit(edit);
      if (problems.length > 0) return reply.code(422).send({ saved: false, problems, pending });
      const written = writeEdit(root, edit);
      return { saved: true, written, pending, publish: written.length > 0 ? publish.request() : publish.status() };
    });

    app.get('/dev/studio/api/publish', async (_req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publish.status();
    });
    app.post('/dev/studio/api/publish', async (req, reply) => {
      if (!sameOrigin(req)) return apiError(reply, 403, 'FORBIDDEN', 'Cross-origin publish refused');
      return publish.request();
    });
  };
}

export default studioRoutes();
