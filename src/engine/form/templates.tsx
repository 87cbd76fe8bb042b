import { useId, useState, type ChangeEvent, type ReactElement } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Alert, IconError, PasswordToggle } from '../../ui';
import { fieldOf } from './errors';
import { useFieldInput } from './field-input';
import { focusField } from './focus';
import {
  errorId,
  getInputProps,
  helpId,
  type ErrorListProps,
  type FieldErrorProps,
  type FieldHelpProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type TemplatesType,
  type WidgetProps,
} from '@rjsf/utils';

/**
 * The few rjsf templates the front door overrides: accessible names equal to the visible label
 * (no required asterisk inside the label), errors announced and linked with aria-describedby,
 * aria-invalid on inputs. Labels arrive already translated (see ui-schema.ts).
 */
/** Widgets that render a group of inputs: a <label for> cannot name them, a fieldset's legend does. */
const GROUP_WIDGETS = ['radio', 'checkboxes', 'RadioWidget', 'CheckboxesWidget'];

/**
 * A registered widget that renders its own label (e.g. a choice group with its legend, or nothing
 * when there is nothing to choose) says so with a static `ownsLabel` (widgets/registry.ts).
 */
export interface SelfLabelledWidget {
  ownsLabel?: boolean;
}

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, hidden, classNames, style, displayLabel, rawErrors, schema, uiSchema, registry } = props;
  if (hidden) return <div className="fd-hidden">{children}</div>;
  const isCheckbox = schema.type === 'boolean';
  const invalid = (rawErrors?.length ?? 0) > 0;
  const widget = String(uiSchema?.['ui:widget'] ?? '');
  if ((registry.widgets[widget] as SelfLabelledWidget | undefined)?.ownsLabel) {
    return (
      <div className={`fd-field fd-field--bare ${classNames ?? ''} ${invalid ? 'fd-field--invalid' : ''}`} style={style}>
        {children}
        {errors}
        {help}
      </div>
    );
  }
  if (GROUP_WIDGETS.includes(widget)) {
    return (
      <fieldset className={`fd-field fd-field--group ${classNames ?? ''} ${invalid ? 'fd-field--invalid' : ''}`} style={style}>
        {displayLabel && label ? <legend className="fd-field__label">{label}</legend> : null}
        {children}
        {errors}
        {help}
      </fieldset>
    );
  }
  return (
    <div className={`fd-field ${classNames ?? ''} ${invalid ? 'fd-field--invalid' : ''}`} style={style}>
      {displayLabel && !isCheckbox && label ? (
        <label htmlFor={id} className="fd-field__label">
          {label}
        </label>
      ) : null}
      {children}
      {errors}
      {help}
    </div>
  );
}

function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  const id = errorId(fieldPathId);
  const list = (errors ?? []).filter((e): e is string => typeof e === 'string' && e !== '');
  // The container always exists so aria-describedby never points at nothing; role=alert announces changes.
  return (
    <div id={id} className="fd-field__errors" role="alert">
      {list.map((error) => (
        <p key={error} className="fd-field__error">
          <IconError size={16} />
          {error}
        </p>
      ))}
    </div>
  );
}

function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps) {
  if (!help) return null;
  return (
    <p id={helpId(fieldPathId)} className="fd-field__help">
      {help}
    </p>
  );
}

function BaseInputTemplate(props: WidgetProps) {
  const { id, readonly, disabled, options, schema, type } = props;
  const inputProps = getInputProps(schema, type, options);
  const typed = useFieldInput(props);
  const handleChange = ({ target }: ChangeEvent<HTMLInputElement>) => typed.change(target.value === '' ? options.emptyValue : target.value);
  const input = (inputType?: string) => (
    <input
      {...typed.attributes}
      className="fd-input"
      value={typed.shown == null ? '' : String(typed.shown)}
      // The schema's maxLength also caps typing (e.g. 72 for a new password, SPEC §5).
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
      {...inputProps}
      {...(inputType ? { type: inputType } : {})}
      required={false}
      onChange={handleChange}
    />
  );
  // Every password input gets the reveal toggle; "ui:options": { "reveal": false } opts out.
  if (inputProps.type === 'password' && options.reveal !== false) return <PasswordInput id={id} render={input} disabled={disabled || readonly} />;
  return input();
}

/** A password input with the show/hide toggle (helps people who mistype or use dictation). */
function PasswordInput({ id, render, disabled }: { id: string; render(type?: string): ReactElement; disabled?: boolean }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <PasswordToggle
      shown={shown}
      onToggle={() => setShown((s) => !s)}
      controls={id}
      disabled={disabled}
      showLabel={t('common.password.show')}
      hideLabel={t('common.password.hide')}
    >
      {render(shown ? 'text' : 'password')}
    </PasswordToggle>
  );
}

/**
 * The error summary above a form with more than two fields (FormStep decides): one link per invalid
 * field, in the order the form shows them, named by the field's label and its message; a link moves
 * focus to its field. Not an alert: each field's own error is announced, and focus moves to the first.
 */
function ErrorListTemplate({ errors, schema, uiSchema, registry }: ErrorListProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const firstMessage = new Map<string, string>();
  for (const error of errors) {
    const field = fieldOf(error);
    if (field !== undefined && error.message && !firstMessage.has(field)) firstMessage.set(field, error.message);
  }
  const order = fieldOrder(schema.properties, uiSchema?.['ui:order']);
  const fields = [...firstMessage.keys()].sort((a, b) => order(a) - order(b));
  if (fields.length === 0) return null;
  const idPrefix = registry.globalFormOptions.idPrefix;
  const label = (field: string) => {
    const title = (uiSchema?.[field] as Record<string, unknown> | undefined)?.['ui:title'];
    return typeof title === 'string' && title !== '' ? title : field;
  };
  return (
    <Alert kind="error" role="group" aria-labelledby={titleId} className="fd-error-summary">
      <h2 id={titleId} className="fd-error-summary__title">
        {t('common.errorSummary.title')}
      </h2>
      <ul className="fd-error-summary__list">
        {fields.map((field) => {
          const id = `${idPrefix}_${field}`;
          return (
            <li key={field}>
              <a
                href={`#${id}`}
                onClick={(event) => {
                  event.preventDefault();
                  focusField(event.currentTarget.closest('form') ?? document, id);
                }}
              >
                {t('common.errorSummary.item', { field: label(field), message: firstMessage.get(field) })}
              </a>
            </li>
          );
        })}
      </ul>
    </Alert>
  );
}

/** A field's place in the form: its index in ui:order, else in the schema's properties. */
function fieldOrder(properties: unknown, uiOrder: unknown): (field: string) => number {
  const listed = Array.isArray(uiOrder) ? uiOrder.filter((name): name is string => typeof name === 'string') : [];
  const names = [...listed, ...Object.keys(properties !== null && typeof properties === 'object' ? properties : {})];
  return (field) => {
    const index = names.indexOf(field);
    return index === -1 ? names.length : index;
  };
}

/** Hidden fields are left out, but for one meant for password managers (see hidden-widget.tsx). */
function ObjectFieldTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  const forPasswordManagers = (name: string) => typeof (uiSchema?.[name] as Record<string, unknown> | undefined)?.['ui:autocomplete'] === 'string';
  return <div className="fd-fields">{properties.filter((p) => !p.hidden || forPasswordManagers(p.name)).map((p) => p.content)}</div>;
}

export const templates: Partial<TemplatesType> = {
  ErrorListTemplate,
  FieldTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  BaseInputTemplate,
  ObjectFieldTemplate,
};
