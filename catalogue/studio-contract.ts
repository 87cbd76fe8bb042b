import type { PendingTranslation } from './check/pending';
import type { Problem } from './check/types';
import type { DiffItem } from './diff/diff';
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

/** POST /dev/studio/api/preview, …/changes and PUT …/changes/:id: an edit of one screen and of locale files. */
export interface EditRequest {
  screenId: string;
  screen?: string;
  /** "<lang>/<file>.json" to its full text. */
  locales?: Record<string, string>;
  /** What the change does and why, in the author's words (a draft's note). */
  note?: string;
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

export type StudioRole = 'editor' | 'approver';

/** A signed-in studio person (GET /dev/studio/api/me). */
export interface Person {
  email: string;
  role: StudioRole;
}

/**
 * GET /dev/studio/api/me: who uses the studio. Studio people sign in on the product's sign-in page
 * (`signIn`, which comes back to the studio), with its limits and its second factor.
 */
export interface SessionAnswer {
  /** The signed-in studio person, or null. */
  person: Person | null;
  /** Whether the person's sign-in asks for a second factor (false: a password alone, admitted in demo mode only). */
  secondFactor?: boolean;
  /** Signed in, but not admitted: the account, and why (no studio role; in production, no second factor). */
  refused?: { email: string; reason: 'NO_STUDIO_ROLE' | 'SECOND_FACTOR_REQUIRED' };
  /** The product's sign-in page, with a return to the studio. */
  signIn: string;
  /** Demo mode: an account without a second factor is admitted (production admits none). */
  demo: boolean;
}

/**
 * A change's life: a draft (its author edits it; a change sent back is a draft again), in review,
 * approved by an approver other than its author, published as a version; or discarded.
 */
export type ChangeState = 'draft' | 'review' | 'approved' | 'published' | 'discarded';

export interface ChangeEvent {
  at: number;
  who: string;
  action:
    | 'created'
    | 'saved'
    | 'review-requested'
    | 'approved'
    | 'sent-back'
    | 'published'
    | 'discarded'
    | 'rollout-started'
    | 'rollout-promoted'
    | 'rollout-stopped';
  /** A send-back's comment; a rollout's share and target ("20 %; hosts: …; languages: …"). */
  comment?: string;
  /** The revision the event was about (absent in events recorded before revisions were). */
  revision?: number;
}

export interface ChangeSummary {
  id: number;
  screenId: string;
  note: string;
  author: string;
  state: ChangeState;
  /**
   * Each save is a new revision (1 when created). Approve and publish name the revision the person
   * saw, and are refused for any other (STALE_REVISION): an approval is of what the approver read.
   */
  revision: number;
  approvedBy?: string;
  /** The version its publication made. */
  version?: number;
  createdAt: number;
  updatedAt: number;
  /** The files it changes ('screens/login.json', 'locales/de-de/login.json'). */
  files: string[];
}

/** One picture of a screen state: its width, colour scheme and address. */
export interface Picture {
  width: number;
  scheme: 'light' | 'dark';
  url: string;
}

/** A screen state a change affects, pictured before and after at each width and scheme. */
export interface PictureState {
  screen: string;
  step: string;
  lang: string;
  before: Picture[];
  after: Picture[];
}

/** GET /dev/studio/api/changes/:id: a change with what it does, in words and pictures. */
export interface ChangeDetail extends ChangeSummary {
  events: ChangeEvent[];
  diff: DiffItem[];
  pictures: PictureState[];
  /** The change's files as it has them ("screens/<id>.json" and "locales/<lang>/<file>.json" to text), to open it in the editor. */
  texts: Record<string, string>;
  /** Files that changed on this server since the draft was saved: it cannot be published before it is saved again. */
  conflicts: string[];
  /** Whether it can be rolled out to a share of the visitors first, and its rollout if one runs. */
  rollout: ChangeRollout;
}

/**
 * A change rolled out before everyone (issue 38): only a change of texts the spec does not fix can
 * be (its texts vary as an experiment: A the live texts, B the change's). An approver starts it after
 * the approval, promotes it (the change is published the normal way) or stops it (the live texts stay).
 */
export interface ChangeRollout {
  /**
   * Why it cannot be rolled out (absent: it can): it changes more than texts (the screen, a text
   * removed, a file that is not a text file), or a text the spec fixes or a button label (`key`).
   */
  refused?: { reason: 'notTextsOnly' | 'fixedText'; key?: string };
  /** The text keys it changes: what a rollout varies. */
  keys: string[];
  /** Its running rollout. */
  running?: ExperimentSummary;
}

/** POST /dev/studio/api/changes/:id/rollout: the revision read, the share of visitors (1–100) and the target (empty: every host, every language). */
export interface RolloutRequest {
  revision: number;
  share: number;
  hosts?: string[];
  languages?: string[];
}

export type VersionKind = 'baseline' | 'publish' | 'rollback' | 'outside';

/** A version of the catalogue: the first (as the studio found it), a publish, a rollback, or files changed outside the studio. */
export interface VersionSummary {
  number: number;
  kind: VersionKind;
  /** Who published or rolled back ('' for the baseline and changes outside the studio). */
  author: string;
  approver?: string;
  note: string;
  changeId?: number;
  /** A rollback: the version it restored. */
  restores?: number;
  createdAt: number;
  files: string[];
}

/** GET /dev/studio/api/versions: the history, newest first, and where this server's files stand. */
export interface VersionsAnswer {
  versions: VersionSummary[];
  /** The version this server's files are at. */
  live: number;
}

/** GET /dev/studio/api/compare?from=&to=: what changed from one version to another. */
export interface Comparison {
  from: number;
  to: number;
  diff: DiffItem[];
  pictures: PictureState[];
}

/**
 * The answer of a studio action (save a draft, ask for review, approve, send back, publish, roll back):
 * the change as it is now, the version a publish or rollback made and the rebuild it started; or why
 * not — 422 with the check's problems, 409 with the files that changed since, 403/404 with a message.
 */
export interface ActionAnswer {
  change?: ChangeDetail;
  version?: number;
  publish?: PublishStatus;
  problems?: Problem[];
  pending?: PendingTranslation[];
  conflicts?: string[];
  /** STALE_REVISION: the change's revision now (the action named an older one). */
  revision?: number;
  message?: string;
}

/** One step of a screen's funnel for one variant (GET /dev/studio/api/funnel). */
export interface FunnelStep {
  step: string;
  /** Visitors the step was shown to. */
  shown: number;
  /** Visitors who submitted it. */
  submitted: number;
  /** Visitors who left the page while it was shown, without completing it. */
  left: number;
  /** Median milliseconds from the step shown to its submit (null: no submit yet). */
  medianMs: number | null;
}

/** A screen's funnel for one variant ("-": visitors outside any experiment). */
export interface FunnelVariant {
  variant: string;
  visitors: number;
  /** Visitors an outcome took forward from the screen (a sign-in, the next screen). */
  completed: number;
  steps: FunnelStep[];
  fieldErrors: Array<{ field: string; keyword: string; count: number }>;
  resultCodes: Array<{ code: string; count: number }>;
}

/** Two variants' completion rates compared: the difference (second minus first, in points) and its 95 % interval. */
export interface FunnelComparison {
  first: string;
  second: string;
  /** Percentage points; null with too few visitors for the normal approximation. */
  difference: number | null;
  low: number | null;
  high: number | null;
  verdict: 'secondBetter' | 'firstBetter' | 'noDifference' | 'tooFew';
}

export interface FunnelReport {
  screen: string;
  /** The version shown (null: every version). */
  version: string | null;
  /** The versions with events in the period, newest first. */
  versions: string[];
  /** Since when (epoch ms). */
  since: number;
  variants: FunnelVariant[];
  comparison: FunnelComparison | null;
}

/** An experiment as the studio lists it (GET /dev/studio/api/experiments). */
export interface ExperimentSummary {
  id: string;
  screen: string;
  /** The text keys it varies. */
  textKeys: string[];
  status: 'running' | 'stopped' | 'promoted';
  winner: string | null;
  /** Each variant's texts: per key, per language (none: the catalogue's text). */
  variants: Array<{ name: string; share: number; texts: Record<string, Record<string, string>> }>;
  /** Branded host names and languages it runs for (empty: every one). */
  hosts: string[];
  languages: string[];
  /** A rollout: the studio change it shows (promoted and stopped on the change), at its revision. */
  changeId: number | null;
  changeRevision: number | null;
}

/** POST /dev/studio/api/experiments: variants of one text (each with its text per language), optionally for some hosts and languages only. */
export interface ExperimentStart {
  id: string;
  screen: string;
  textKey: string;
  variants: Array<{ name: string; share: number; texts: Record<string, string> }>;
  hosts?: string[];
  languages?: string[];
}
