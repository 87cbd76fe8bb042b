/**
 * Phone widget ("ui:widget": "phone"): a tel input whose form value is the number in E.164.
 *
 * API (all a screen needs):
 * - Schema: `{ "$ref": "defs/phone.json" }` (a string matching E.164). Put it in "required" when
 *   the number is mandatory.
 * - Value: `"+14155550123"` when the typed text is a valid phone number (libphonenumber-js, full
 *   metadata); otherwise the text exactly as typed, which fails the E.164 pattern of
 *   defs/phone.json, so validation shows the shared validators' 'Invalid' (`validation.invalid`);
 *   an empty input gives no value ('Required' when required). A prefilled E.164 value is shown
 *   in international format.
 * - ui:options: `defaultCountry` (ISO 3166 alpha-2, e.g. "US") for numbers typed without "+";
 *   by default the region of the browser language (en-US -> US), else "+" is needed.
 * - Accessibility: the input gets the field's id, so its accessible name is the field's label
 *   (ui:title); autocomplete="tel"; aria-invalid / aria-describedby like every other input.
 * - Right to left (ar, he): the number stays left to right (dir="ltr": "+1 415…" not "…415 1+"),
 *   aligned with the other fields; digits typed on an Arabic keyboard (٠–٩) are read as 0–9.
 *
 * The library (~150 kB) comes with this module, which widgets/registry.ts loads lazily: only
 * screens that show a phone field pay for it.
 */
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { parsePhoneNumberFromString, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { useFieldInput } from '../../src/engine';

/** The country for numbers typed without '+': the option, else the browser language's region. */
export function defaultCountryFor(option: unknown, browserLanguage: string | undefined): CountryCode | undefined {
  const candidates = [typeof option === 'string' ? option : undefined, browserLanguage?.split('-')[1]];
  for (const candidate of candidates) {
    const code = candidate?.toUpperCase();
    if (code && isSupportedCountry(code)) return code;
  }
  return undefined;
}

/** E.164 for a valid number, else undefined. */
export function toE164(text: string, country: CountryCode | undefined): string | undefined {
  const parsed = parsePhoneNumberFromString(text, country);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** What the input shows for a form value (international format when it is a valid E.164). */
function display(value: unknown): string {
  if (typeof value !== 'string') return '';
  const parsed = parsePhoneNumberFromString(value);
  return parsed?.isValid() ? parsed.formatInternational() : value;
}

export default function PhoneWidget(props: WidgetProps) {
  const { value, options, placeholder } = props;
  const country = defaultCountryFor(options.defaultCountry, typeof navigator === 'undefined' ? undefined : navigator.language);
  const field = useFieldInput(props);
  const [text, setText] = useState(() => display(value));
  // The value last emitted: a different incoming value was set from outside (prefill, setFields).
  const emitted = useRef<unknown>(value);
  if (field.shown !== emitted.current) {
    emitted.current = field.shown;
    const shown = display(field.shown);
    if (shown !== text) setText(shown);
  }

  // A valid number that is not yet E.164 came from outside the widget: typed into the server's page
  // before the app took it over (src/engine/form/early-input.ts reads the input's text), or set so.
  // It becomes the form's E.164 value, as typing it here would make it; the input shows it in international format.
  const incoming = typeof field.shown === 'string' ? field.shown.trim() : '';
  const normalized = incoming === '' ? undefined : toE164(incoming, country);
  const fromOutside = normalized !== undefined && normalized !== field.shown ? normalized : undefined;
  const { change } = field;
  useEffect(() => {
    if (fromOutside === undefined) return;
    emitted.current = fromOutside;
    change(fromOutside);
  }, [fromOutside, change]);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const typed = event.target.value;
    setText(typed);
    const trimmed = typed.trim();
    const next = trimmed === '' ? options.emptyValue : (toE164(trimmed, country) ?? trimmed);
    emitted.current = next;
    field.change(next);
  };

  return (
    <input
      {...field.attributes}
      className="fd-input fd-input--phone"
      dir="ltr"
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      value={text}
      placeholder={placeholder || undefined}
      onChange={handleChange}
    />
  );
}
