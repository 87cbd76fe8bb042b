import type { ChangeEvent, FocusEvent } from 'react';
import {
  ariaDescribedByIds,
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
function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, hidden, classNames, style, displayLabel, rawErrors, schema } = props;
  if (hidden) return <div className="fd-hidden">{children}</div>;
  const isCheckbox = schema.type === 'boolean';
  const invalid = (rawErrors?.length ?? 0) > 0;
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
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, schema, type, rawErrors, required } = props;
  const inputProps = getInputProps(schema, type, options);
  const handleChange = ({ target }: ChangeEvent<HTMLInputElement>) => onChange(target.value === '' ? options.emptyValue : target.value);
  return (
    <input
      id={id}
      name={htmlName || id}
      className="fd-input"
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      value={value == null ? '' : String(value)}
      {...inputProps}
      required={false}
      aria-required={required || undefined}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={handleChange}
      onBlur={(e: FocusEvent<HTMLInputElement>) => onBlur(id, e.target.value)}
      onFocus={(e: FocusEvent<HTMLInputElement>) => onFocus(id, e.target.value)}
    />
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
