import type { CallRef, DiffItem, Target } from '../../catalogue/diff/diff';
import { st } from '../studio-i18n';

/**
 * The semantic diff in people's words (catalogue/diff computes it, the server sends it): one line per
 * change, worded from studio/locales ("diff.*"), with the screen and step it is on.
 */
const quote = (text: string | undefined) => (text === undefined ? st('diff.nothing') : `“${text}”`);

function callWords(call: CallRef): string {
  return st(`diff.calls.${call.kind}`, { operation: call.operation || st('diff.noOperation') });
}

function targetWords(target: Target | undefined): string {
  if (!target) return st('diff.targets.none');
  switch (target.kind) {
    case 'step':
      return st('diff.targets.step', { step: target.step });
    case 'route':
      return st('diff.targets.route', { path: target.path });
    default:
      return st(`diff.targets.${target.kind}`);
  }
}

/** A text key with its English text, when the catalogue has one. */
function keyWords(key: string | undefined, textOf: (key: string) => string | undefined): string {
  if (key === undefined) return st('diff.nothing');
  const text = textOf(key);
  return text === undefined ? key : `“${text}” (${key})`;
}

export function diffWords(item: DiffItem, textOf: (key: string) => string | undefined): string {
  switch (item.kind) {
    case 'screen-added':
    case 'screen-removed':
      return st(`diff.${item.kind}`, { screen: item.screen });
    case 'step-added':
    case 'step-removed':
      return st(`diff.${item.kind}`, { step: item.step });
    case 'field-added':
      return st(item.required ? 'diff.field-added-required' : 'diff.field-added', { label: item.label ?? item.field, field: item.field });
    case 'field-removed':
      return st('diff.field-removed', { label: item.label ?? item.field, field: item.field });
    case 'fields-reordered':
      return st('diff.fields-reordered', { before: item.before.join(', '), after: item.after.join(', ') });
    case 'field-required':
      return st(item.required ? 'diff.field-required' : 'diff.field-optional', { label: item.label ?? item.field });
    case 'widget-swapped':
      return st('diff.widget-swapped', {
        label: item.label ?? item.field,
        before: item.before ?? st('diff.defaultWidget'),
        after: item.after ?? st('diff.defaultWidget'),
      });
    case 'field-relabelled':
      return st('diff.field-relabelled', { field: item.field, lang: item.lang, before: quote(item.before), after: quote(item.after) });
    case 'route-changed':
      return st('diff.route-changed', { call: callWords(item.call), code: item.code, before: targetWords(item.before), after: targetWords(item.after) });
    case 'message-changed':
      return st('diff.message-changed', {
        call: callWords(item.call),
        code: item.code,
        before: keyWords(item.before, textOf),
        after: keyWords(item.after, textOf),
      });
    case 'screen-other':
      return st('diff.screen-other', { count: item.pointers.length, pointers: item.pointers.slice(0, 6).join(', ') || '/' });
    case 'text-added':
    case 'text-removed':
    case 'text-changed':
      return st(`diff.${item.kind}`, { key: item.key, lang: item.lang, before: quote(item.before), after: quote(item.after) });
    case 'file-added':
    case 'file-removed':
      return st(`diff.${item.kind}`, { path: item.path });
  }
}

/** Where an item is: "login · credentials", or the languages' file for a text. */
function placeOf(item: DiffItem): string {
  if ('uses' in item) return item.uses.map((u) => (u.step ? `${u.screen} · ${u.step}` : u.screen)).join(', ');
  if ('screen' in item) return item.step ? `${item.screen} · ${item.step}` : item.screen;
  return '';
}

export function DiffList({ diff, textOf }: { diff: DiffItem[]; textOf: (key: string) => string | undefined }) {
  if (diff.length === 0) return <p>{st('diff.empty')}</p>;
  return (
    <ul className="studio-diff" data-testid="studio-diff">
      {diff.map((item, i) => (
        <li key={i} data-kind={item.kind}>
          <span className="studio-diff__words">{diffWords(item, textOf)}</span>
          {placeOf(item) ? <span className="studio-diff__place">{placeOf(item)}</span> : null}
        </li>
      ))}
    </ul>
  );
}
