import type { ComponentType } from 'react';
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
import type { DeferredRjsfWidget, EagerRjsfWidget } from '../../../catalogue/language/rjsf-widgets';
import { lazyPart } from '../lazy-part';
import DescriptionField from '@rjsf/core/lib/components/templates/DescriptionField.js';
import TitleField from '@rjsf/core/lib/components/templates/TitleField.js';

/**
 * rjsf's default fields, widgets and templates for the browser bundle (vite.config.ts puts these
 * functions in place of @rjsf/core's components/{fields,widgets,templates}/index.js). The same
 * names and the same components, but those the sign-in form does not use — numbers, selects,
 * radios, arrays, anyOf/oneOf, layout grids, dates, files, colours, ranges, buttons, and the
 * templates src/engine/form/templates.tsx replaces — load on first render (each a lazy part:
 * rendering nothing meanwhile and holding the step not ready, src/engine/lazy-part.tsx), so /login
 * does not carry them. A screen that renders one brings it in its own chunk instead
 * (catalogue/check/rjsf-parts.ts), so it shows at once.
 */
// rjsf types its fields generically; the registry holds them as FieldProps/WidgetProps components.
const field = (name: string, load: () => Promise<{ default: unknown }>) => lazyPart(name, load as () => Promise<{ default: ComponentType<FieldProps> }>);
const template = (name: string, load: () => Promise<{ default: unknown }>) => lazyPart(name, load as () => Promise<{ default: ComponentType<object> }>);

/** Each a lazy part named by its key (the name a chunk failure shows). */
function lazyParts<P extends object>(loaders: Record<string, () => Promise<{ default: unknown }>>): Record<string, ComponentType<P>> {
  return Object.fromEntries(Object.entries(loaders).map(([name, load]) => [name, lazyPart(name, load as () => Promise<{ default: ComponentType<P> }>)]));
}

/** rjsf's buttons (submit, and the add/copy/move/remove of arrays), each loaded when first rendered. */
function buttonTemplates() {
  const names = ['SubmitButton', 'AddButton', 'CopyButton', 'MoveDownButton', 'MoveUpButton', 'RemoveButton', 'ClearButton'] as const;
  const load = () => import('@rjsf/core/lib/components/templates/ButtonTemplates/index.js').then((m) => m.default());
  return Object.fromEntries(names.map((name) => [name, template(name, () => load().then((buttons) => ({ default: buttons[name] })))]));
}

const MultiSchemaField = field('MultiSchemaField', () => import('@rjsf/core/lib/components/fields/MultiSchemaField.js'));

export function fields(): RegistryFieldsType {
  return {
    AnyOfField: MultiSchemaField,
    BooleanField,
    ObjectField,
    OneOfField: MultiSchemaField,
    SchemaField,
    StringField,
    ...lazyParts<FieldProps>({
      ArrayField: () => import('@rjsf/core/lib/components/fields/ArrayField.js'),
      CyclicSchemaField: () => import('@rjsf/core/lib/components/fields/CyclicSchemaField.js'),
      FallbackField: () => import('@rjsf/core/lib/components/fields/FallbackField.js'),
      LayoutGridField: () => import('@rjsf/core/lib/components/fields/LayoutGridField.js'),
      LayoutHeaderField: () => import('@rjsf/core/lib/components/fields/LayoutHeaderField.js'),
      LayoutMultiSchemaField: () => import('@rjsf/core/lib/components/fields/LayoutMultiSchemaField.js'),
      NumberField: () => import('@rjsf/core/lib/components/fields/NumberField.js'),
      OptionalDataControlsField: () => import('@rjsf/core/lib/components/fields/OptionalDataControlsField.js'),
      NullField: () => import('@rjsf/core/lib/components/fields/NullField.js'),
    }),
  } as RegistryFieldsType;
}

/** Every widget rjsf's registry has (catalogue/language/rjsf-widgets.ts names them), the deferred ones lazily. */
const deferredWidgets = {
  AltDateWidget: () => import('@rjsf/core/lib/components/widgets/AltDateWidget.js'),
  AltDateTimeWidget: () => import('@rjsf/core/lib/components/widgets/AltDateTimeWidget.js'),
  CheckboxesWidget: () => import('@rjsf/core/lib/components/widgets/CheckboxesWidget.js'),
  ColorWidget: () => import('@rjsf/core/lib/components/widgets/ColorWidget.js'),
  DateWidget: () => import('@rjsf/core/lib/components/widgets/DateWidget.js'),
  DateTimeWidget: () => import('@rjsf/core/lib/components/widgets/DateTimeWidget.js'),
  FileWidget: () => import('@rjsf/core/lib/components/widgets/FileWidget.js'),
  RadioWidget: () => import('@rjsf/core/lib/components/widgets/RadioWidget.js'),
  RangeWidget: () => import('@rjsf/core/lib/components/widgets/RangeWidget.js'),
  RatingWidget: () => import('@rjsf/core/lib/components/widgets/RatingWidget.js'),
  SelectWidget: () => import('@rjsf/core/lib/components/widgets/SelectWidget.js'),
  TextareaWidget: () => import('@rjsf/core/lib/components/widgets/TextareaWidget.js'),
  TimeWidget: () => import('@rjsf/core/lib/components/widgets/TimeWidget.js'),
  UpDownWidget: () => import('@rjsf/core/lib/components/widgets/UpDownWidget.js'),
  URLWidget: () => import('@rjsf/core/lib/components/widgets/URLWidget.js'),
} satisfies Record<DeferredRjsfWidget, () => Promise<{ default: unknown }>>;

export function widgets(): RegistryWidgetsType {
  const eager = { CheckboxWidget, EmailWidget, HiddenWidget, PasswordWidget, TextWidget } satisfies Record<EagerRjsfWidget, unknown>;
  return { ...eager, ...lazyParts<WidgetProps>(deferredWidgets) } as RegistryWidgetsType;
}

export function templates(): TemplatesType {
  return {
    ButtonTemplates: buttonTemplates(),
    DescriptionFieldTemplate: DescriptionField,
    TitleFieldTemplate: TitleField,
    ...lazyParts<object>({
      ArrayFieldDescriptionTemplate: () => import('@rjsf/core/lib/components/templates/ArrayFieldDescriptionTemplate.js'),
      ArrayFieldItemTemplate: () => import('@rjsf/core/lib/components/templates/ArrayFieldItemTemplate.js'),
      ArrayFieldItemButtonsTemplate: () => import('@rjsf/core/lib/components/templates/ArrayFieldItemButtonsTemplate.js'),
      ArrayFieldTemplate: () => import('@rjsf/core/lib/components/templates/ArrayFieldTemplate.js'),
      ArrayFieldTitleTemplate: () => import('@rjsf/core/lib/components/templates/ArrayFieldTitleTemplate.js'),
      BaseInputTemplate: () => import('@rjsf/core/lib/components/templates/BaseInputTemplate.js'),
      CyclicSchemaExpandTemplate: () => import('@rjsf/core/lib/components/templates/CyclicSchemaExpandTemplate.js'),
      ErrorListTemplate: () => import('@rjsf/core/lib/components/templates/ErrorList.js'),
      FallbackFieldTemplate: () => import('@rjsf/core/lib/components/templates/FallbackFieldTemplate.js'),
      FieldTemplate: () => import('@rjsf/core/lib/components/templates/FieldTemplate/index.js'),
      FieldErrorTemplate: () => import('@rjsf/core/lib/components/templates/FieldErrorTemplate.js'),
      FieldHelpTemplate: () => import('@rjsf/core/lib/components/templates/FieldHelpTemplate.js'),
      GridTemplate: () => import('@rjsf/core/lib/components/templates/GridTemplate.js'),
      MultiSchemaFieldTemplate: () => import('@rjsf/core/lib/components/templates/MultiSchemaFieldTemplate.js'),
      ObjectFieldTemplate: () => import('@rjsf/core/lib/components/templates/ObjectFieldTemplate.js'),
      OptionalDataControlsTemplate: () => import('@rjsf/core/lib/components/templates/OptionalDataControlsTemplate.js'),
      UnsupportedFieldTemplate: () => import('@rjsf/core/lib/components/templates/UnsupportedField.js'),
      WrapIfAdditionalTemplate: () => import('@rjsf/core/lib/components/templates/WrapIfAdditionalTemplate.js'),
    }),
  } as unknown as TemplatesType;
}
