import { Button } from '../src/ui';
import { useId, useState } from 'react';
import type { PendingTranslation } from '../catalogue/check/pending';
import { setText, type LocaleTexts } from './recipes/edits';
import { localeBase, textIn, type RecipeContext } from './recipes/context';
import { st } from './studio-i18n';
import { Control } from './recipes/Control';
import { DEFAULT_LANGUAGE } from '../src/app/studio-entry';

type TextsContext = Pick<RecipeContext, 'texts' | 'languages' | 'localeFile'> & {
  apply(edit: { locales: LocaleTexts }, done: string): void;
};

/**
 * One text in every language, in one table: edit any cell; an empty cell is a pending translation
 * (visitors in that language see the English text).
 */
export function TextTable({ ctx, textKey, onKey, keys }: { ctx: TextsContext; textKey: string; onKey(key: string): void; keys: string[] }) {
  const id = useId();
  const [typed, setTyped] = useState(textKey);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const english = textIn(ctx, DEFAULT_LANGUAGE, textKey);
  const change = (lang: string, value: string) => {
    setDrafts((d) => ({ ...d, [lang]: value }));
    ctx.apply({ locales: setText(localeBase(ctx, textKey), textKey, lang, value) }, st('texts.done', { key: textKey, lang }));
  };
  return (
    <div className="studio__table" data-testid="studio-text-table">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setDrafts({});
          onKey(typed.trim());
        }}
      >
        <Control label={st('texts.key')}>
          <input value={typed} onChange={(e) => setTyped(e.target.value)} list={`${id}-keys`} size={36} />
        </Control>
        <datalist id={`${id}-keys`}>
          {keys.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        <Button type="submit" variant="secondary">
          {st('texts.open')}
        </Button>
      </form>
      {textKey ? (
        <table>
          <caption>{st('texts.caption', { key: textKey })}</caption>
          <thead>
            <tr>
              <th scope="col">{st('texts.language')}</th>
              <th scope="col">{st('texts.text')}</th>
              <th scope="col">{st('texts.state')}</th>
            </tr>
          </thead>
          <tbody>
            {ctx.languages.map((lang) => {
              const saved = textIn(ctx, lang, textKey);
              const value = drafts[lang] ?? saved ?? '';
              const pending = value === '' && lang !== DEFAULT_LANGUAGE;
              return (
                <tr key={lang} data-lang={lang}>
                  <th scope="row">
                    <label htmlFor={`${id}-${lang}`}>{lang}</label>
                  </th>
                  <td>
                    <input id={`${id}-${lang}`} value={value} placeholder={pending ? english : undefined} onChange={(e) => change(lang, e.target.value)} />
                  </td>
                  <td>{value === '' ? (lang === DEFAULT_LANGUAGE ? st('texts.missing') : st('texts.pending')) : st('texts.translated')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/** The texts that exist in English but not yet in every language: listed, never blocking a save. */
export function PendingList({ pending, onOpen }: { pending: PendingTranslation[]; onOpen(key: string): void }) {
  if (pending.length === 0) return null;
  return (
    <details className="studio__pending" data-testid="studio-pending" open>
      <summary>{st('texts.pendingTitle', { count: pending.length })}</summary>
      <p>{st('texts.pendingNote')}</p>
      <ul>
        {pending.map((p) => (
          <li key={p.key}>
            <code>{p.key}</code> “{p.english}” — {st('texts.pendingIn', { count: p.languages.length, languages: p.languages.join(', ') })}{' '}
            <Button variant="tertiary" onClick={() => onOpen(p.key)}>
              {st('texts.translate', { key: p.key })}
            </Button>
          </li>
        ))}
      </ul>
    </details>
  );
}
