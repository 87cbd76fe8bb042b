import type { StrictRJSFSchema } from '@rjsf/utils';
import type { RouteSpec, ScreenFile, SharedOutcomes } from '../../catalogue/language/types';

/** The screen files' own types are the catalogue language's: the engine and its hosts use them through this module. */
export type * from '../../catalogue/language/types';

/** What a screen is opened with: where it is, and the route's context. */
export interface ScreenEntry {
  pathname: string;
  search: string;
  /** History state (untrusted: only its primitive values are read). */
  state?: unknown;
  params: Record<string, string | undefined>;
  /** The matched route's context and own title. */
  route?: Omit<RouteSpec, 'path'>;
  /**
   * A state to open in other than the first: a step and an error or warning on show. The build
   * prerenders with it the pages the server answers a plain form's post with (scripts/prerender.ts).
   */
  start?: { step?: string; error?: StartText; warning?: StartText };
}

/** A text key with its values (as the engine's outcomes resolve them). */
export interface StartText {
  key: string;
  values: Record<string, unknown>;
}

/** rjsf's merge of a schema's allOf (@rjsf/utils/lib/schema/shallowAllOfMerge.js). */
export type AllOfMerge = (schema: StrictRJSFSchema | boolean) => StrictRJSFSchema | boolean;

/** A precompiled rjsf validator module: schema hash to validate function (see scripts/build). */
export type PrecompiledValidators = Record<string, unknown>;

/** A step's precompiled validators, or their chunk's loader. */
export type StepValidators = PrecompiledValidators | (() => Promise<PrecompiledValidators>);

/** What a generated screen module (src/generated/screens/<id>.ts) exports. */
export interface ScreenModule {
  screen: ScreenFile;
  /** The catalogue's shared outcomes (the blocks this screen includes). */
  outcomes: SharedOutcomes;
  /** Step name to the precompiled validator functions of its schema, or their loader (scripts/generate.ts loads most after the form is shown). */
  validators: Record<string, StepValidators>;
  /** rjsf's own fields and widgets this screen renders that the browser registry defers (catalogue/check/rjsf-parts.ts). */
  rjsf?: { fields: Record<string, unknown>; widgets: Record<string, unknown>; mergeAllOf?: AllOfMerge };
}
