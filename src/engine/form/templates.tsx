import { useState, type ChangeEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldInput } from './field-input';
import {
  errorId,
  getInputProps,
  helpId,
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

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, hidden, classNames, style, displayLabel, rawErrors, schema, uiSchema } = props;
  if (hidden) return <div className="fd-hidden">{children}</div>;
  const isCheckbox = schema.type === 'boolean';
  const invalid = (rawErrors?.length ?? 0) > 0;
  if (GROUP_WIDGETS.includes(String(uiSchema?.['ui:widget'] ?? ''))) {
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

/**
 * A password input with a show/hide toggle (helps people who mistype or use dictation). The
 * button's name says what it will do ('Show password' / 'Hide password'), without aria-pressed,
 * which would announce a contradictory state; the autocomplete token and paste stay untouched.
 */
function PasswordInput({ id, render, disabled }: { id: string; render(type?: string): ReactElement; disabled?: boolean }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <div className="fd-password">
      {render(shown ? 'text' : 'password')}
      <button type="button" className="fd-password__toggle" aria-controls={id} disabled={disabled} onClick={() => setShown((s) => !s)}>
        {shown ? t('common.password.hide') : t('common.password.show')}
      </button>
    </div>
  );
}

function ObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  return <div className="fd-fields">{properties.filter((p) => !p.hidden).map((p) => p.content)}</div>;
}

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  BaseInputTemplate,
  ObjectFieldTemplate,
};
