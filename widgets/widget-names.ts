/**
 * The names screens may use in "ui:widget": ours (widgets/registry.ts implements exactly these) and
 * rjsf's built-ins. Data without React, so the catalogue check reads it in Node.
 */
export const widgetNames = ['otp', 'mfaMethod', 'duo', 'webauthn', 'qrCode', 'phone'] as const;
export type WidgetName = (typeof widgetNames)[number];

/** rjsf's built-in widget names (@rjsf/core getDefaultRegistry().widgets). */
export const builtInWidgetNames = [
  'AltDateTimeWidget',
  'AltDateWidget',
  'CheckboxesWidget',
  'CheckboxWidget',
  'ColorWidget',
  'DateTimeWidget',
  'DateWidget',
  'EmailWidget',
  'FileWidget',
  'HiddenWidget',
  'PasswordWidget',
  'RadioWidget',
  'RangeWidget',
  'SelectWidget',
  'TextareaWidget',
  'TextWidget',
  'TimeWidget',
  'UpDownWidget',
  'URLWidget',
  'alt-date',
  'alt-datetime',
  'checkbox',
  'checkboxes',
  'color',
  'date',
  'datetime',
  'email',
  'file',
  'hidden',
  'password',
  'radio',
  'range',
  'select',
  'text',
  'textarea',
  'time',
  'updown',
  'uri',
] as const;

/** The names of { "type": "component" } blocks (widgets/content/registry.ts implements exactly these). */
export const contentNames = ['sessionSummary', 'helpCenterLink', 'ticketTimers', 'verifyMfa'] as const;
export type ContentName = (typeof contentNames)[number];
