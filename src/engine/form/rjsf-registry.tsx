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
 * (scripts/catalogue/rjsf-parts.ts), so it shows at once.
 */
// rjsf types its fields generically; the registry holds them as FieldProps/WidgetProps components.
const field = (name: string, load: () => Promise<{ default: unknown }>) => lazyPart(name, load as () => Promise<{ default: ComponentType<FieldProps> }>);
const template = (name: string, load: () => Promise<{ default: unknown }>) => lazyPart(name, load as () => Promise<{ default: ComponentType<object> }>);
const widget = (name: string, load: () => Promise<{ default: unknown }>) => lazyPart(name, load as () => Promise<{ default: ComponentType<WidgetProps> }>);

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
    ArrayField: field('ArrayField', () => import('@rjsf/core/lib/components/fields/ArrayField.js')),
    BooleanField,
    CyclicSchemaField: field('CyclicSchemaField', () => import('@rjsf/core/lib/components/fields/CyclicSchemaField.js')),
    FallbackField: field('FallbackField', () => import('@rjsf/core/lib/components/fields/FallbackField.js')),
    LayoutGridField: field('LayoutGridField', () => import('@rjsf/core/lib/components/fields/LayoutGridField.js')),
    LayoutHeaderField: field('LayoutHeaderField', () => import('@rjsf/core/lib/components/fields/LayoutHeaderField.js')),
    LayoutMultiSchemaField: field('LayoutMultiSchemaField', () => import('@rjsf/core/lib/components/fields/LayoutMultiSchemaField.js')),
    NumberField: field('NumberField', () => import('@rjsf/core/lib/components/fields/NumberField.js')),
    ObjectField,
    OneOfField: MultiSchemaField,
    OptionalDataControlsField: field('OptionalDataControlsField', () => import('@rjsf/core/lib/components/fields/OptionalDataControlsField.js')),
    SchemaField,
    StringField,
    NullField: field('NullField', () => import('@rjsf/core/lib/components/fields/NullField.js')),
  } as RegistryFieldsType;
}

export function widgets(): RegistryWidgetsType {
  return {
    AltDateWidget: widget('AltDateWidget', () => import('@rjsf/core/lib/components/widgets/AltDateWidget.js')),
    AltDateTimeWidget: widget('AltDateTimeWidget', () => import('@rjsf/core/lib/components/widgets/AltDateTimeWidget.js')),
    CheckboxWidget,
    CheckboxesWidget: widget('CheckboxesWidget', () => import('@rjsf/core/lib/components/widgets/CheckboxesWidget.js')),
    ColorWidget: widget('ColorWidget', () => import('@rjsf/core/lib/components/widgets/ColorWidget.js')),
    DateWidget: widget('DateWidget', () => import('@rjsf/core/lib/components/widgets/DateWidget.js')),
    DateTimeWidget: widget('DateTimeWidget', () => import('@rjsf/core/lib/components/widgets/DateTimeWidget.js')),
    EmailWidget,
    FileWidget: widget('FileWidget', () => import('@rjsf/core/lib/components/widgets/FileWidget.js')),
    HiddenWidget,
    PasswordWidget,
    RadioWidget: widget('RadioWidget', () => import('@rjsf/core/lib/components/widgets/RadioWidget.js')),
    RangeWidget: widget('RangeWidget', () => import('@rjsf/core/lib/components/widgets/RangeWidget.js')),
    RatingWidget: widget('RatingWidget', () => import('@rjsf/core/lib/components/widgets/RatingWidget.js')),
    SelectWidget: widget('SelectWidget', () => import('@rjsf/core/lib/components/widgets/SelectWidget.js')),
    TextWidget,
    TextareaWidget: widget('TextareaWidget', () => import('@rjsf/core/lib/components/widgets/TextareaWidget.js')),
    TimeWidget: widget('TimeWidget', () => import('@rjsf/core/lib/components/widgets/TimeWidget.js')),
    UpDownWidget: widget('UpDownWidget', () => import('@rjsf/core/lib/components/widgets/UpDownWidget.js')),
    URLWidget: widget('URLWidget', () => import('@rjsf/core/lib/components/widgets/URLWidget.js')),
  } as RegistryWidgetsType;
}

export function templates(): TemplatesType {
  return {
    ArrayFieldDescriptionTemplate: template('ArrayFieldDescriptionTemplate', () => import('@rjsf/core/lib/components/templates/ArrayFieldDescriptionTemplate.js')),
    ArrayFieldItemTemplate: template('ArrayFieldItemTemplate', () => import('@rjsf/core/lib/components/templates/ArrayFieldItemTemplate.js')),
    ArrayFieldItemButtonsTemplate: template('ArrayFieldItemButtonsTemplate', () => import('@rjsf/core/lib/components/templates/ArrayFieldItemButtonsTemplate.js')),
    ArrayFieldTemplate: template('ArrayFieldTemplate', () => import('@rjsf/core/lib/components/templates/ArrayFieldTemplate.js')),
    ArrayFieldTitleTemplate: template('ArrayFieldTitleTemplate', () => import('@rjsf/core/lib/components/templates/ArrayFieldTitleTemplate.js')),
    ButtonTemplates: buttonTemplates(),
    BaseInputTemplate: template('BaseInputTemplate', () => import('@rjsf/core/lib/components/templates/BaseInputTemplate.js')),
    CyclicSchemaExpandTemplate: template('CyclicSchemaExpandTemplate', () => import('@rjsf/core/lib/components/templates/CyclicSchemaExpandTemplate.js')),
    DescriptionFieldTemplate: DescriptionField,
    ErrorListTemplate: template('ErrorListTemplate', () => import('@rjsf/core/lib/components/templates/ErrorList.js')),
    FallbackFieldTemplate: template('FallbackFieldTemplate', () => import('@rjsf/core/lib/components/templates/FallbackFieldTemplate.js')),
    FieldTemplate: template('FieldTemplate', () => import('@rjsf/core/lib/components/templates/FieldTemplate/index.js')),
    FieldErrorTemplate: template('FieldErrorTemplate', () => import('@rjsf/core/lib/components/templates/FieldErrorTemplate.js')),
    FieldHelpTemplate: template('FieldHelpTemplate', () => import('@rjsf/core/lib/components/templates/FieldHelpTemplate.js')),
    GridTemplate: template('GridTemplate', () => import('@rjsf/core/lib/components/templates/GridTemplate.js')),
    MultiSchemaFieldTemplate: template('MultiSchemaFieldTemplate', () => import('@rjsf/core/lib/components/templates/MultiSchemaFieldTemplate.js')),
    ObjectFieldTemplate: template('ObjectFieldTemplate', () => import('@rjsf/core/lib/components/templates/ObjectFieldTemplate.js')),
    OptionalDataControlsTemplate: template('OptionalDataControlsTemplate', () => import('@rjsf/core/lib/components/templates/OptionalDataControlsTemplate.js')),
    TitleFieldTemplate: TitleField,
    UnsupportedFieldTemplate: template('UnsupportedFieldTemplate', () => import('@rjsf/core/lib/components/templates/UnsupportedField.js')),
    WrapIfAdditionalTemplate: template('WrapIfAdditionalTemplate', () => import('@rjsf/core/lib/components/templates/WrapIfAdditionalTemplate.js')),
  } as unknown as TemplatesType;
}

