import { useMemo } from 'react';
import type { FieldProps, UiSchema } from '@rjsf/utils';
import RjsfStringField from '@rjsf/core/lib/components/fields/StringField.js';

/**
 * rjsf's StringField (6.11) hands its widget the options of the field's own uiSchema only, not the
 * form's ui:globalOptions as its other fields do (BooleanField, ArrayField): a select of a string
 * enum (a language, a team size) ignored the form's optionValueFormat (./ui-schema.ts) and carried
 * option indexes, which a plain post and a prerendered form's early input (./early-input.ts) then
 * read as the value. This one gives it the global options, beneath the field's own.
 */
export function StringField(props: FieldProps) {
  const { uiSchema, registry } = props;
  const global = registry.globalUiOptions;
  const withGlobal = useMemo((): UiSchema | undefined => {
    if (!global) return uiSchema;
    const { 'ui:options': own, ...rest } = uiSchema ?? {};
    // ui:options first: getUiOptions reads keys in order, so a field's ui:xxx still wins over a global option.
    return { 'ui:options': { ...global, ...own }, ...rest };
  }, [uiSchema, global]);
  return <RjsfStringField {...props} uiSchema={withGlobal} />;
}
