import { join } from 'node:path';
import { SERVER_ONLY_LOCALE_FILES, type Project } from '../../catalogue/check/check';
import { loadVocabulary } from '../../catalogue/check/vocabulary';
import { compileLocale, type Tree } from '../../catalogue/language/icu';
import { PSEUDO_LOCALE, pseudoLocale } from '../../catalogue/language/pseudo';
import { banner, type Output } from './output';

/**
 * Business lists (schemas/defs/*.json with an enum) for the app: only the values, no descriptions.
 * One export per list, so a bundle carries only the lists it uses. And the hosts' names
 * (src/app/vocabulary.json, …) without their descriptions, for code that needs the names at run time
 * (the page's lazy actions): one export per host and part, e.g. appActions.
 */
export function writeListsAndNames(out: Output, dir: string, project: Project): void {
  out.write(
    join(dir, 'lists.ts'),
    [
      banner('schemas/defs/'),
      ...Object.entries(project.lists).map(([name, values]) => `export const ${name} = ${JSON.stringify(values)} as const;`),
      // A list's "default" (language: the fallback language; theme: the theme of an unbranded site).
      ...Object.entries(project.listDefaults).map(([name, value]) => `export const ${name}Default = ${JSON.stringify(value)} as const;`),
      '',
    ].join('\n'),
  );
  out.write(
    join(dir, 'vocabulary.ts'),
    [
      banner("the hosts' vocabulary files"),
      ...loadVocabulary().hosts.flatMap(({ file, names }) => {
        const host = file.split('/').at(-2) ?? '';
        return Object.entries(names).map(([part, list]) => `export const ${host}${part[0]?.toUpperCase()}${part.slice(1)} = ${JSON.stringify(list)} as const;`);
      }),
      '',
    ].join('\n'),
  );
}

/** ICU texts compiled into i18next's plural keys, without the server's own texts (email.json: emails and texts, server/delivery/email). */
const browserTexts = (merged: Record<string, unknown>): Tree =>
  compileLocale(Object.fromEntries(Object.entries(merged).filter(([file]) => !SERVER_ONLY_LOCALE_FILES.includes(file))) as Tree);

/** A language's texts with the English of each text not translated yet: the page loads one locale chunk, not its language's and en-us. */
function withEnglish(tree: Record<string, unknown>, base: unknown): Record<string, unknown> {
  if (base === null || typeof base !== 'object') return tree;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(tree)) {
    const under = out[key];
    out[key] =
      value !== null && typeof value === 'object' && under !== null && typeof under === 'object' ? withEnglish(value as Record<string, unknown>, under) : value;
  }
  return out;
}

/** Locale files every page's first texts include: the frame's and the messages' (app, common), the form's validation messages. */
export const FIRST_TEXTS_CORE = ['app', 'common', 'validation'] as const;

/**
 * The locale files of a screen's first texts (what its page needs until the visitor goes elsewhere):
 * the core ones, the screen's own, and every file whose keys the screen file names (e.g. login's
 * passkey errors, and with them the passkey sign-in's texts).
 */
export function firstTextFiles(screen: { id: string }, screenJson: string, files: readonly string[]): string[] {
  const named = files.filter((file) => screenJson.includes(`"${file}.`));
  return [...new Set([...FIRST_TEXTS_CORE, screen.id, ...named])].filter((file) => files.includes(file)).sort();
}

/**
 * Locales: each language whole (the build and the server read it, and the app after its first screen:
 * one chunk, `all`), and per screen its first texts (`first-<screen>`, one chunk per language and
 * screen: a page loads exactly one text chunk before it hydrates; src/app/i18n.ts), with a small loader
 * module per language for the rest; and the pseudo-locale from en-us (catalogue/language/pseudo.ts),
 * outside locales/, so the app never lists or loads it.
 */
export function writeLocales(out: Output, dir: string, project: Project): void {
  const english = project.locales[project.defaultLanguage];
  for (const [lang, merged] of Object.entries(project.locales)) {
    const texts = browserTexts(withEnglish(merged, english));
    out.write(join(dir, 'locales', `${lang}.json`), JSON.stringify(texts));
    const bundles: Record<string, Tree> = { all: texts };
    for (const { screen } of project.screens) {
      const files = firstTextFiles(screen, JSON.stringify(screen), Object.keys(texts));
      bundles[`first-${screen.id}`] = Object.fromEntries(
        files.flatMap((file) => {
          const tree = texts[file];
          return typeof tree === 'object' ? [[file, tree]] : [];
        }),
      );
    }
    for (const [name, tree] of Object.entries(bundles)) out.write(join(dir, 'locales', lang, `${name}.json`), JSON.stringify(tree));
    // The language's loaders, a small chunk of its own (a page's first texts are named by the server and need none).
    out.write(
      join(dir, 'locales', lang, 'index.ts'),
      [
        banner(`locales/${lang}/`),
        `const bundles: Record<string, () => Promise<{ default: Record<string, Record<string, unknown>> }>> = {`,
        ...Object.keys(bundles).map((name) => `  ${JSON.stringify(name)}: () => import('./${name}.json'),`),
        `};`,
        `export default bundles;`,
        '',
      ].join('\n'),
    );
  }
  if (english) out.write(join(dir, 'pseudo', `${PSEUDO_LOCALE}.json`), JSON.stringify(pseudoLocale(browserTexts(english))));
}
