import { useReducer } from 'react';
import { DEFAULT_LANGUAGE, DEFAULT_THEME } from '../../src/app/studio-entry';
import type { PreviewFlags } from '../Preview';

export type Tab = 'forms' | 'table' | 'screen' | 'texts';
export const TABS: Tab[] = ['forms', 'table', 'screen', 'texts'];

/** What the studio's editor shows: the tab, the texts file and table key, the preview's language, theme, flags, step and address, the last recipe's note. */
export interface StudioView {
  tab: Tab;
  textsFile?: string;
  tableKey: string;
  lang: string;
  theme: string;
  flags: PreviewFlags;
  step?: string;
  url?: string;
  recipeNote?: string;
}

export type StudioViewEvent =
  | { type: 'tab'; tab: Tab }
  | { type: 'textsFile'; file: string }
  | { type: 'tableKey'; key: string }
  /** A text opened from a recipe or a problem: the table at its key. */
  | { type: 'openText'; key: string }
  | { type: 'lang'; lang: string }
  | { type: 'theme'; theme: string }
  | { type: 'flags'; change: (flags: PreviewFlags) => PreviewFlags }
  | { type: 'step'; step: string }
  | { type: 'url'; url: string }
  /** A recipe applied (its note shown), or the note cleared. */
  | { type: 'note'; note?: string }
  /** Another screen, or a change opened: its first step at its sample address; with `screen`, also its texts file and no note. */
  | { type: 'reopened'; screen: boolean };

const INITIAL: StudioView = {
  tab: 'forms',
  tableKey: '',
  lang: DEFAULT_LANGUAGE,
  theme: DEFAULT_THEME,
  flags: { branded: false, production: false, selfRegistrationEnabled: true },
};

export function studioViewReducer(view: StudioView, event: StudioViewEvent): StudioView {
  switch (event.type) {
    case 'tab':
      return { ...view, tab: event.tab };
    case 'textsFile':
      return { ...view, textsFile: event.file };
    case 'tableKey':
      return { ...view, tableKey: event.key };
    case 'openText':
      return { ...view, tableKey: event.key, tab: 'table' };
    case 'lang':
      return { ...view, lang: event.lang };
    case 'theme':
      return { ...view, theme: event.theme };
    case 'flags':
      return { ...view, flags: event.change(view.flags) };
    case 'step':
      return { ...view, step: event.step };
    case 'url':
      return { ...view, url: event.url };
    case 'note':
      return { ...view, recipeNote: event.note };
    case 'reopened':
      return { ...view, step: undefined, url: undefined, ...(event.screen ? { textsFile: undefined, recipeNote: undefined } : {}) };
  }
}

/** The editor's view state: one typed reducer instead of a useState per part. */
export function useStudioView() {
  return useReducer(studioViewReducer, INITIAL);
}
