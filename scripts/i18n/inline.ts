import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { isIcu } from '../../catalogue/language/icu';

/**
 * A text cut into what a translator translates and the codes they must keep: i18next's
 * {{placeholders}} and $t() nestings in a plain text; an ICU text's arguments ({name},
 * {n, number}) and the plural's number (#). The ICU structure itself ({count, plural, one {…}})
 * stays text, so a translator can add the cases their language needs (Arabic: zero, one, two,
 * few, many, other), as Angular's XLIFF does; the import checks its syntax.
 */
export type Part = string | { code: string };

const PLAIN_CODE = /(\{\{[^{}]*\}\}|\$t\([^)]*\))/;

function codeRanges(elements: MessageFormatElement[], out: Array<[number, number]> = []): Array<[number, number]> {
  for (const el of elements) {
    if ((el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.pound) && el.location)
      out.push([el.location.start.offset, el.location.end.offset]);
    if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) codeRanges(option.value, out);
  }
  return out;
}

export function splitText(text: string): Part[] {
  if (!isIcu(text))
    return text
      .split(PLAIN_CODE)
      .map((part, i) => (i % 2 === 1 ? { code: part } : part))
      .filter((part) => part !== '');
  let ranges: Array<[number, number]>;
  try {
    ranges = codeRanges(parse(text, { ignoreTag: true, captureLocation: true })).sort((a, b) => a[0] - b[0]);
  } catch {
    return [text];
  }
  const parts: Part[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push({ code: text.slice(start, end) });
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

export function joinParts(parts: readonly Part[]): string {
  return parts.map((part) => (typeof part === 'string' ? part : part.code)).join('');
}
