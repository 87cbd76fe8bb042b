import { lazy, Suspense, type ComponentType } from 'react';
import type { FieldProps, RegistryFieldsType, RegistryWidgetsType, TemplatesType, WidgetProps } from '@rjsf/utils';
import BooleanField from '@rjsf/core/lib/components/fields/BooleanField.js';
import ObjectField from '@rjsf/core/lib/components/fields/ObjectField.js';
import SchemaField from '@rjsf/core/lib/components/fields/SchemaField.js';
import StringField from '@rjsf/core/lib/components/fields/StringField.js';
import CheckboxWidget from '@rjsf/core/lib/components/widgets/CheckboxWidget.js';
import EmailWidget from '@rjsf/core/lib/components/widgets/EmailWidget.js';
import HiddenWidget from '@rjsf/core/lib/components/widgets/HiddenWidget.js';
import PasswordWidget from '@rjsf/core/lib/components/widgets/PasswordWidget.js';
import TextWidget from '@rjsf/core/lib/components/widgets/TextWidget.js';
import { LoadingPart } from '../readiness';
import DescriptionField from '@rjsf/core/lib/components/templates/DescriptionField.js';
import TitleField from '@rjsf/core/lib/components/templates/TitleField.js';

/**
 * rjsf's default fields, widgets and templates for the browser bundle (vite.config.ts puts these
 * functions in place of @rjsf/core's components/{fields,widgets,templates}/index.js). The same
 * names and the same components, but those the sign-in form does not use — numbers, selects,
 * radios, arrays, anyOf/oneOf, layout grids, dates, files, colours, ranges, buttons, and the
 * templates src/engine/form/templates.tsx replaces — load on first render (each in its own
 * Suspense, rendering nothing meanwhile and holding the step not ready, src/engine/readiness.tsx),
 * so /login does not carry them. A screen that renders one brings it in its own chunk instead
 * (scripts/catalogue/rjsf-parts.ts), so it shows at once.
 */
function deferred<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Lazy = lazy(load);
  return function Deferred(props: P) {
    return (
      <Suspense fallback={<LoadingPart />}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

// rjsf types its fields generically; the registry holds them as FieldProps/WidgetProps components.
const field = (load: () => Promise<{ default: unknown }>) => deferred(load as () => Promise<{ default: ComponentType<FieldProps> }>);
const template = (load: () => Promise<{ default: unknown }>) => deferred(load as () => Promise<{ default: ComponentType<object> }>);
const widget = (load: () => Promise<{ default: unknown }>) => deferred(load as () => Promise<{ default: ComponentType<WidgetProps> }>);

/** rjsf's buttons (submit, and the add/copy/move/remove of arrays), each loaded when first rendered. */
function buttonTemplates() {
  const names = ['SubmitButton', 'AddButton', 'CopyButton', 'MoveDownButton', 'MoveUpButton', 'RemoveButton', 'ClearButton'] as const;
  const load = () => import('@rjsf/core/lib/components/templates/ButtonTemplates/index.js').then((m) => m.default());
  return Object.fromEntries(names.map((name) => [name, template(() => load().then((buttons) => ({ default: buttons[name] })))]));
}

const MultiSchemaField = field(() => import('@rjsf/core/lib/components/fields/MultiSchemaField.js'));

export function fields(): RegistryFieldsType {
  return {
    AnyOfField: MultiSchemaField,
    ArrayField: field(() => import('@rjsf/core/lib/components/fields/ArrayField.js')),
    BooleanField,
    CyclicSchemaField: field(() => import('@rjsf/core/lib/components/fields/CyclicSchemaField.js')),
    FallbackField: field(() => import('@rjsf/core/lib/components/fields/FallbackField.js')),
    LayoutGridField: field(() => import('@rjsf/core/lib/components/fields/LayoutGridField.js')),
    LayoutHeaderField: field(() => import('@rjsf/core/lib/components/fields/LayoutHeaderField.js')),
    LayoutMultiSchemaField: field(() => import('@rjsf/core/lib/components/fields/LayoutMultiSchemaField.js')),
    NumberField: field(() => import('@rjsf/core/lib/components/fields/NumberField.js')),
    ObjectField,
    OneOfField: MultiSchemaField,
    OptionalDataControlsField: field(() => import('@rjsf/core/lib/components/fields/OptionalDataControlsField.js')),
    SchemaField,
    StringField,
    NullField: field(() => import('@rjsf/core/lib/components/fields/NullField.js')),
  } as RegistryFieldsType;
}

export function widgets(): RegistryWidgetsType {
  return {
    AltDateWidget: widget(() => import('@rjsf/core/lib/components/widgets/AltDateWidget.js')),
    AltDateTimeWidget: widget(() => import('@rjsf/core/lib/components/widgets/AltDateTimeWidget.js')),
    CheckboxWidget,
    CheckboxesWidget: widget(() => import('@rjsf/core/lib/components/widgets/CheckboxesWidget.js')),
    ColorWidget: widget(() => import('@rjsf/core/lib/components/widgets/ColorWidget.js')),
    DateWidget: widget(() => import('@rjsf/core/lib/components/widgets/DateWidget.js')),
    DateTimeWidget: widget(() => import('@rjsf/core/lib/components/widgets/DateTimeWidget.js')),
    EmailWidget,
    FileWidget: widget(() => import('@rjsf/core/lib/components/widgets/FileWidget.js')),
    HiddenWidget,
    PasswordWidget,
    RadioWidget: widget(() => import('@rjsf/core/lib/components/widgets/RadioWidget.js')),
    RangeWidget: widget(() => import('@rjsf/core/lib/components/widgets/RangeWidget.js')),
    RatingWidget: widget(() => import('@rjsf/core/lib/components/widgets/RatingWidget.js')),
    SelectWidget: widget(() => import('@rjsf/core/lib/components/widgets/SelectWidget.js')),
    TextWidget,
    TextareaWidget: widget(() => import('@rjsf/core/lib/components/widgets/TextareaWidget.js')),
    TimeWidget: widget(() => import('@rjsf/core/lib/components/widgets/TimeWidget.js')),
    UpDownWidget: widget(() => import('@rjsf/core/lib/components/widgets/UpDownWidget.js')),
    URLWidget: widget(() => import('@rjsf/core/lib/components/widgets/URLWidget.js')),
  } as RegistryWidgetsType;
}

export function templates(): TemplatesType {
  return {
    ArrayFieldDescriptionTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldDescriptionTemplate.js')),
    ArrayFieldItemTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldItemTemplate.js')),
    ArrayFieldItemButtonsTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldItemButtonsTemplate.js')),
    ArrayFieldTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldTemplate.js')),
    ArrayFieldTitleTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldTitleTemplate.js')),
    ButtonTemplates: buttonTemplates(),
    BaseInputTemplate: template(() => import('@rjsf/core/lib/components/templates/BaseInputTemplate.js')),
    CyclicSchemaExpandTemplate: template(() => import('@rjsf/core/lib/components/templates/CyclicSchemaExpandTemplate.js')),
    DescriptionFieldTemplate: DescriptionField,
    ErrorListTemplate: template(() => import('@rjsf/core/lib/components/templates/ErrorList.js')),
    FallbackFieldTemplate: template(() => import('@rjsf/core/lib/components/templates/FallbackFieldTemplate.js')),
    FieldTemplate: template(() => import('@rjsf/core/lib/components/templates/FieldTemplate/index.js')),
    FieldErrorTemplate: template(() => import('@rjsf/core/lib/components/templates/FieldErrorTemplate.js')),
    FieldHelpTemplate: template(() => import('@rjsf/core/lib/components/templates/FieldHelpTemplate.js')),
    GridTemplate: template(() => import('@rjsf/core/lib/components/templates/GridTemplate.js')),
    MultiSchemaFieldTemplate: template(() => import('@rjsf/core/lib/components/templates/MultiSchemaFieldTemplate.js')),
    ObjectFieldTemplate: template(() => import('@rjsf/core/lib/components/templates/ObjectFieldTemplate.js')),
    OptionalDataControlsTemplate: template(() => import('@rjsf/core/lib/components/templates/OptionalDataControlsTemplate.js')),
    TitleFieldTemplate: TitleField,
    UnsupportedFieldTemplate: template(() => import('@rjsf/core/lib/components/templates/UnsupportedField.js')),
    WrapIfAdditionalTemplate: template(() => import('@rjsf/core/lib/components/templates/WrapIfAdditionalTemplate.js')),
  } as unknown as TemplatesType;
}

