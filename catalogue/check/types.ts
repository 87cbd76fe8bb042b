import type { ScreenFile, SharedOutcomes } from '../language/types';

/**
 * The check's shapes, free of Node: the studio (in the browser) reads problems and pending
 * translations with them.
 */

/** One thing wrong with the catalogue: the file, where in it (JSON Pointer) and why. */
export interface Problem {
  file: string;
  pointer: string;
  message: string;
  /** 1-based position of the pointer's node (or of the syntax error) in the file, when known. */
  line?: number;
  column?: number;
  /** The closest valid name ('did you mean …'), when one is close enough. */
  suggestion?: string;
}

/** "screens/login.json:12:7 at /steps/credentials/uiSchema/email/ui:widget: unknown widget …" */
export function formatProblem(problem: Problem): string {
  const position = problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : '';
  return `${problem.file}${position}${problem.pointer ? ` at ${problem.pointer}` : ''}: ${problem.message}`;
}

/** Reports one problem of a known file: where (JSON Pointer), why, and the name probably meant. */
export type Report = (pointer: string, message: string, suggestion?: string) => void;

/** A Report that adds to `problems` for `file` ("…; did you mean "x"?" when a suggestion is given). */
export function reporter(problems: Problem[], file: string): Report {
  return (pointer, message, suggestion) =>
    problems.push({ file, pointer, message: suggestion ? `${message}; did you mean "${suggestion}"?` : message, ...(suggestion ? { suggestion } : {}) });
}

export interface OperationFile {
  operation: string;
  method: string;
  path: string;
  request: Record<string, unknown> | null;
  response: Record<string, unknown> | null;
  /** The bot-check action its tokens name, when not the operation's name. */
  botCheckAction?: string;
}

export interface LoadedScreen {
  file: string;
  screen: ScreenFile;
  /** Step name to its schema with file $refs inlined. */
  schemas: Record<string, Record<string, unknown>>;
}

/** The ui: keys the meta-schema enumerates, for the step root and for a field. */
export interface UiKeys {
  root: string[];
  field: string[];
}

export interface Project {
  root: string;
  screens: LoadedScreen[];
  /** Language to its merged translations ('<file>.<path>' keys). */
  locales: Record<string, Record<string, unknown>>;
  /** The language every other falls back to (schemas/defs/language.json "default"): a key it lacks is an error. */
  defaultLanguage: string;
  /** The "default" of each business list that declares one (language, theme). */
  listDefaults: Record<string, string>;
  operations: Record<string, OperationFile>;
  /** Where screen.schema.json, defs/ and api/ live (resolves $refs of response schemas). */
  schemasDir?: string;
  /** '<lang>/<file>' of locale files that did not load (their own problem is reported once). */
  brokenLocales?: string[];
  /** Business lists of schemas/defs (catalogue/check/lists.ts). */
  lists: Lists;
  /** screens/shared/outcomes.json. */
  outcomes: SharedOutcomes;
  /** The names the hosts declare (actions, flags, $env sources, queries, widgets, content components). */
  vocabulary: Vocabulary;
  /** Files that did not parse or did not pass their meta-schema: reported once, their facts unknown. */
  broken?: string[];
  /** screens/shared/outcomes.json did not load: its blocks and defaults are unknown, not missing. */
  outcomesBroken?: boolean;
  /** Screens that parse but failed the meta-schema (their routes still count). */
  unchecked?: Array<Partial<ScreenFile>>;
  /** Screen files that do not parse. */
  unparsed?: string[];
  /** The ui: keys the meta-schema enumerates. */
  uiKeys?: UiKeys;
}

/** Business lists of schemas/defs, by file name: the values of each one's enum. */
export type Lists = Record<string, string[]>;

/** The names the hosts declare (catalogue/check/vocabulary.ts reads them). */
export interface Vocabulary {
  actions: string[];
  flags: string[];
  env: string[];
  queries: string[];
  /** Custom widgets (rjsf's own are RJSF_WIDGET_NAMES). */
  widgets: string[];
  content: string[];
}

/** Where the shared outcomes live, beside the screens. */
export const SHARED_OUTCOMES_FILE = 'shared/outcomes.json';
/**
 * Locale files only the server reads (email.json: emails and text messages, server/delivery/email):
 * checked like the others, kept out of the app's bundle (scripts/generate.ts). A folder holding
 * nothing else is not a UI language: none of its UI texts is "pending".
 */
export const SERVER_ONLY_LOCALE_FILES: readonly string[] = ['email'];

export interface ProjectDirs {
  root: string;
  screensDir?: string;
  localesDir?: string;
  schemasDir?: string;
}

/**
 * A text of the default language that another language does not have yet: the app shows the
 * default text there (i18next's fallbackLng), so it does not block a build or a save; the check and
 * the studio list it. One entry per key, located at its default-language text.
 */
export interface PendingTranslation {
  /** The dotted key, e.g. login.fields.nickname (a plural group by its base key). */
  key: string;
  /** Languages without it, e.g. ['da-da', 'de-de', ...]. */
  languages: string[];
  /** Where the default-language text is: locales/en-us/<file>.json, its pointer and position. */
  file: string;
  pointer: string;
  line?: number;
  column?: number;
}
