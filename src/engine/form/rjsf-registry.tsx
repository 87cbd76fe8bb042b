import { lazy, Suspense, type ComponentType } from 'react';
import type { FieldProps, RegistryFieldsType, RegistryWidgetsType, TemplatesType, WidgetProps } from '@rjsf/utils';
import BooleanField from '@rjsf/core/lib/components/fields/BooleanField.js';
import NullField from '@rjsf/core/lib/components/fields/NullField.js';
import NumberField from '@rjsf/core/lib/components/fields/NumberField.js';
import ObjectField from '@rjsf/core/lib/components/fields/ObjectField.js';
import SchemaField from '@rjsf/core/lib/components/fields/SchemaField.js';
import StringField from '@rjsf/core/lib/components/fields/StringField.js';
import CheckboxWidget from '@rjsf/core/lib/components/widgets/CheckboxWidget.js';
import EmailWidget from '@rjsf/core/lib/components/widgets/EmailWidget.js';
import HiddenWidget from '@rjsf/core/lib/components/widgets/HiddenWidget.js';
import PasswordWidget from '@rjsf/core/lib/components/widgets/PasswordWidget.js';
import RadioWidget from '@rjsf/core/lib/components/widgets/RadioWidget.js';
import SelectWidget from '@rjsf/core/lib/components/widgets/SelectWidget.js';
import TextareaWidget from '@rjsf/core/lib/components/widgets/TextareaWidget.js';
import TextWidget from '@rjsf/core/lib/components/widgets/TextWidget.js';
import UpDownWidget from '@rjsf/core/lib/components/widgets/UpDownWidget.js';
import URLWidget from '@rjsf/core/lib/components/widgets/URLWidget.js';
import ButtonTemplates from '@rjsf/core/lib/components/templates/ButtonTemplates/index.js';
import DescriptionField from '@rjsf/core/lib/components/templates/DescriptionField.js';
import ErrorList from '@rjsf/core/lib/components/templates/ErrorList.js';
import TitleField from '@rjsf/core/lib/components/templates/TitleField.js';
import WrapIfAdditionalTemplate from '@rjsf/core/lib/components/templates/WrapIfAdditionalTemplate.js';

/**
 * rjsf's default fields, widgets and templates for the browser bundle (vite.config.ts puts these
 * functions in place of @rjsf/core's components/{fields,widgets,templates}/index.js). The same
 * names and the same components, but those our sign-in forms do not use — arrays, anyOf/oneOf,
 * layout grids, dates, files, colours, ranges, and the templates src/engine/form/templates.tsx
 * replaces — load on first render (each in its own Suspense, rendering nothing meanwhile), so
 * /login does not carry them.
 */
function deferred<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Lazy = lazy(load);
  return function Deferred(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

// rjsf types its fields generically; the registry holds them as FieldProps/WidgetProps components.
const field = (load: () => Promise<{ default: unknown }>) => deferred(load as () => Promise<{ default: ComponentType<FieldProps> }>);
const template = (load: () => Promise<{ default: unknown }>) => deferred(load as () => Promise<{ default: ComponentType<object> }>);
const widget = (load: () => Promise<{ default: unknown }>) => deferred(load as () => Promise<{ default: ComponentType<WidgetProps> }>);

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
    NumberField,
    ObjectField,
    OneOfField: MultiSchemaField,
    OptionalDataControlsField: field(() => import('@rjsf/core/lib/components/fields/OptionalDataControlsField.js')),
    SchemaField,
    StringField,
    NullField,
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
    RadioWidget,
    RangeWidget: widget(() => import('@rjsf/core/lib/components/widgets/RangeWidget.js')),
    RatingWidget: widget(() => import('@rjsf/core/lib/components/widgets/RatingWidget.js')),
    SelectWidget,
    TextWidget,
    TextareaWidget,
    TimeWidget: widget(() => import('@rjsf/core/lib/components/widgets/TimeWidget.js')),
    UpDownWidget,
    URLWidget,
  } as RegistryWidgetsType;
}

export function templates(): TemplatesType {
  return {
    ArrayFieldDescriptionTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldDescriptionTemplate.js')),
    ArrayFieldItemTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldItemTemplate.js')),
    ArrayFieldItemButtonsTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldItemButtonsTemplate.js')),
    ArrayFieldTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldTemplate.js')),
    ArrayFieldTitleTemplate: template(() => import('@rjsf/core/lib/components/templates/ArrayFieldTitleTemplate.js')),
    ButtonTemplates: ButtonTemplates(),
    BaseInputTemplate: template(() => import('@rjsf/core/lib/components/templates/BaseInputTemplate.js')),
    CyclicSchemaExpandTemplate: template(() => import('@rjsf/core/lib/components/templates/CyclicSchemaExpandTemplate.js')),
    DescriptionFieldTemplate: DescriptionField,
    ErrorListTemplate: ErrorList,
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
    WrapIfAdditionalTemplate,
  } as unknown as TemplatesType;
}

