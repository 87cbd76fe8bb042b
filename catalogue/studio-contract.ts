import type { PendingTranslation } from './check/pending';
import type { Problem } from './check/types';
import type { ScreenFile, SharedOutcomes } from './language/types';

/**
 * The shapes of the studio's API (/dev/studio/api, server/routes/studio): the server answers them,
 * the studio (studio/api.ts) reads them. Types only, so both sides share them without importing
 * each other.
 */

/** GET /dev/studio/api/catalogue: the files the studio edits, as text. */
export interface CatalogueTexts {
  screens: Array<{ id: string; text: string }>;
  /** "<lang>/<file>.json" to its text. */
  locales: Record<string, string>;
  languages: string[];
  metaSchema: Record<string, unknown>;
}

/** POST /dev/studio/api/preview and …/save: an edit of one screen and of locale files. */
export interface EditRequest {
  screenId: string;
  screen?: string;
  /** "<lang>/<file>.json" to its full text. */
  locales?: Record<string, string>;
}

export interface CatalogueRoute {
  path: string;
  screenId: string;
}

/** The preview's answer: the check of the edit, and the screen as the browser would get it. */
export interface CheckedEdit {
  problems: Problem[];
  /** Texts in the default language that some languages lack: listed, not blocking. */
  pending: PendingTranslation[];
  screen: ScreenFile | null;
  routes: CatalogueRoute[];
  locales: Record<string, Record<string, unknown>>;
  outcomes?: SharedOutcomes;
  resultCodes: Record<string, string[]>;
}

/** Where the running app stands against the files on disk (GET/POST /dev/studio/api/publish). */
export interface PublishStatus {
  /** off: this server cannot rebuild its app (the studio says what to run); idle: nothing saved yet. */
  state: 'off' | 'idle' | 'running' | 'done' | 'failed';
  /** Counts finished rebuilds (a save during a rebuild is followed by one more before the state leaves running). */
  version: number;
  /** What to run by hand when the app cannot be rebuilt here (state off or failed). */
  command: string;
  /** The last lines of a failed rebuild. */
  output?: string;
}

/** The save's answer (422 with problems when the check refuses it). */
export interface SaveAnswer {
  saved: boolean;
  written?: string[];
  problems?: Problem[];
  pending?: PendingTranslation[];
  publish?: PublishStatus;
  message?: string;
}
