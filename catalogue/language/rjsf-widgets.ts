/**
 * rjsf's own widgets, named once: the browser registry implements exactly these
 * (src/engine/form/rjsf-registry.tsx), the check accepts them in "ui:widget" beside the hosts'
 * widgets, and the build imports the deferred ones with the screens that render them
 * (catalogue/check/rjsf-parts.ts). Data without React, so Node reads it too.
 */

/** The components of rjsf's default registry (@rjsf/core lib/components/widgets). */
export const RJSF_WIDGETS = [
  'AltDateTimeWidget',
  'AltDateWidget',
  'CheckboxWidget',
  'CheckboxesWidget',
  'ColorWidget',
  'DateTimeWidget',
  'DateWidget',
  'EmailWidget',
  'FileWidget',
  'HiddenWidget',
  'PasswordWidget',
  'RadioWidget',
  'RangeWidget',
  'RatingWidget',
  'SelectWidget',
  'TextWidget',
  'TextareaWidget',
  'TimeWidget',
  'URLWidget',
  'UpDownWidget',
] as const;
export type RjsfWidget = (typeof RJSF_WIDGETS)[number];

/** The short names "ui:widget" may use for them (rjsf's getWidget widgetMap, all schema types together). */
export const RJSF_WIDGET_ALIASES: Readonly<Record<string, RjsfWidget>> = {
  'alt-date': 'AltDateWidget',
  'alt-datetime': 'AltDateTimeWidget',
  checkbox: 'CheckboxWidget',
  checkboxes: 'CheckboxesWidget',
  color: 'ColorWidget',
  'data-url': 'FileWidget',
  date: 'DateWidget',
  'date-time': 'DateTimeWidget',
  datetime: 'DateTimeWidget',
  email: 'EmailWidget',
  file: 'FileWidget',
  files: 'FileWidget',
  hidden: 'HiddenWidget',
  hostname: 'TextWidget',
  ipv4: 'TextWidget',
  ipv6: 'TextWidget',
  password: 'PasswordWidget',
  radio: 'RadioWidget',
  range: 'RangeWidget',
  select: 'SelectWidget',
  text: 'TextWidget',
  textarea: 'TextareaWidget',
  time: 'TimeWidget',
  updown: 'UpDownWidget',
  uri: 'URLWidget',
};

/** Every rjsf name a screen may write in "ui:widget": the components and their short names. */
export const RJSF_WIDGET_NAMES: readonly string[] = [...RJSF_WIDGETS, ...Object.keys(RJSF_WIDGET_ALIASES)];

/** The rjsf widget a "ui:widget" name renders, or undefined for a name that is not rjsf's. */
export function rjsfWidget(name: string): RjsfWidget | undefined {
  if ((RJSF_WIDGETS as readonly string[]).includes(name)) return name as RjsfWidget;
  return Object.hasOwn(RJSF_WIDGET_ALIASES, name) ? RJSF_WIDGET_ALIASES[name] : undefined;
}

/** Those the sign-in form renders: in the browser bundle from the start; every other one loads on first render. */
export const EAGER_RJSF_WIDGETS = ['CheckboxWidget', 'EmailWidget', 'HiddenWidget', 'PasswordWidget', 'TextWidget'] as const satisfies readonly RjsfWidget[];
export type EagerRjsfWidget = (typeof EAGER_RJSF_WIDGETS)[number];
export type DeferredRjsfWidget = Exclude<RjsfWidget, EagerRjsfWidget>;
