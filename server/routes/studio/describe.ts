import { diffCatalogue, type DiffItem } from '../../../catalogue/diff/diff.js';
import type { PictureState } from '../../../catalogue/studio-contract.js';
import { listCatalogue, readCatalogueFiles } from './files.js';
import type { FileTexts } from './history.js';

/**
 * What a change does, for the studio's review and history: the semantic diff of two sides of the
 * catalogue (each the files on disk with some replaced), and the screen states to picture before and
 * after — every screen and step the diff names, in the language of the texts changed — at each width
 * and colour scheme of the screenshot grid (tests/e2e/visual.spec.ts, scripts/screenshots.ts).
 */
export const PICTURE_WIDTHS = [375, 1280] as const;
export const PICTURE_SCHEMES = ['light', 'dark'] as const;
/** At most this many states are pictured (each is 8 pictures); the diff lists every change anyway. */
export const MAX_PICTURED_STATES = 4;

export interface Sides {
  before: FileTexts;
  after: FileTexts;
}

export type PictureUrl = (side: 'before' | 'after', state: { screen: string; step: string; lang: string }, width: number, scheme: string) => string;

const parse = (text: string | null | undefined): Record<string, unknown> => {
  try {
    return text ? ((JSON.parse(text) as Record<string, unknown>) ?? {}) : {};
  } catch {
    return {};
  }
};

export function describeChange(root: string, sides: Sides, url: PictureUrl): { diff: DiffItem[]; pictures: PictureState[] } {
  const disk = readCatalogueFiles(root);
  const listing = listCatalogue(root);
  const reader = (side: FileTexts) => (path: string) => (path in side ? (side[path] ?? null) : (disk[path] ?? null));
  const before = reader(sides.before);
  const after = reader(sides.after);
  const paths = [...new Set([...Object.keys(sides.before), ...Object.keys(sides.after)])].filter((p) => before(p) !== after(p));
  const screens = [...new Set([...listing.screens, ...paths.flatMap((p) => /^screens\/([A-Za-z0-9]+)\.json$/.exec(p)?.[1] ?? [])])];
  const diff = diffCatalogue({ paths, before, after, screens, defaultLanguage: listing.defaultLanguage });

  // Screen states the diff names: its own place (a step, or the screen's first step), or where a text shows.
  const initialStep = (screen: string) => {
    const file = parse(after(`screens/${screen}.json`) ?? before(`screens/${screen}.json`));
    return typeof file.initialStep === 'string' ? file.initialStep : undefined;
  };
  const states: Array<{ screen: string; step: string; lang: string }> = [];
  const add = (screen: string, step: string | undefined, lang: string) => {
    const at = step ?? initialStep(screen);
    if (at && !states.some((s) => s.screen === screen && s.step === at && s.lang === lang)) states.push({ screen, step: at, lang });
  };
  const skipped = ['file-added', 'file-removed', 'screen-removed', 'step-removed'];
  for (const item of diff) {
    if (skipped.includes(item.kind)) continue;
    if ('uses' in item) for (const use of item.uses) add(use.screen, use.step, item.lang);
    else if ('screen' in item) add(item.screen, item.step, 'lang' in item && item.lang ? item.lang : listing.defaultLanguage);
  }
  const pictures = states.slice(0, MAX_PICTURED_STATES).map((state) => {
    const side = (name: 'before' | 'after') =>
      PICTURE_WIDTHS.flatMap((width) => PICTURE_SCHEMES.map((scheme) => ({ width, scheme, url: url(name, state, width, scheme) })));
    return { ...state, before: side('before'), after: side('after') };
  });
  return { diff, pictures };
}
