import type { WidgetProps } from '@rjsf/utils';

/**
 * rjsf's 'hidden' widget, with one addition: a hidden field with ui:autocomplete (the account's
 * username beside a new password) is a text input with the hidden attribute, which password managers
 * read to file the new password under the right account; an input of type hidden they ignore.
 */
export function HiddenWidget({ id, htmlName, value, options }: WidgetProps) {
  const shown = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (typeof options.autocomplete === 'string') {
    return <input id={id} name={htmlName || id} type="text" hidden readOnly tabIndex={-1} autoComplete={options.autocomplete} value={shown} />;
  }
  return <input id={id} name={htmlName || id} type="hidden" value={shown} />;
}
