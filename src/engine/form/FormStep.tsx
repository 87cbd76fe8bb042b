import {
  useContext,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentPropsWithRef,
  type Ref,
  type RefObject,
} from 'react';
import { useTranslation, type Texts } from '../../lib/i18n';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, ErrorTransformer, NameGeneratorFunction, RegistryFieldsType, RegistryWidgetsType, RJSFSchema } from '@rjsf/utils';
import type { CallSpec, ProbeSpec, ScreenModule, StepSpec, StepValidators } from '../types';
import type { ResolvedText, Scope } from '../../../catalogue/language/scope';
import { fieldOf, invalidFields, makeTransformErrors } from './errors';
import { FormAlerts } from './FormAlerts';
import { focusFirstInvalid } from './focus';
import { HiddenWidget } from './hidden-widget';
import { templates } from './templates';
import { GuardedForm, PendingChanges, PendingChangesProvider } from './typing';
import { readEarlyInput, takeOver, useHydrating } from './early-input';
import { StringField } from './string-field';
import { provideAllOfMerge } from './all-of';
import { prepareUiSchema } from './ui-schema';
import { ValidatorFactoryContext } from './validator-factory';
import { DeferredValidator } from './deferred-validation';
import { useOptionalEngineHost } from '../host';
import type { ScreenApi } from '../runtime-api';
import { Button } from '../../ui';

export interface FormStepHandle {
  /** The step this form belongs to (the host's ref still holds the old form while a new step renders). */
  stepName: string;
  data(): Record<string, unknown>;
  clear(fields: string[]): void;
  set(values: Record<string, unknown>): void;
}

export interface FormStepProps {
  ref?: Ref<FormStepHandle>;
  stepName: string;
  step: StepSpec;
  validators: StepValidators;
  /** The host's custom widgets, by the names screens use. */
  widgets?: RegistryWidgetsType;
  /** rjsf fields and widgets the screen brings in its chunk (see ScreenModule.rjsf). */
  rjsfParts?: ScreenModule['rjsf'];
  /** What the form starts with (src/engine/form/initial-data.ts); read once, when the step mounts. */
  initialData: Record<string, unknown>;
  /** The screen's scope; its `form` holds the fields the step's conditions read (the runtime's one watcher). */
  scope: Scope;
  busy: boolean;
  submitLabel?: ResolvedText;
  /** The submit's disabledWhen holds: the button is disabled (a warning block says why). */
  submitDisabled?: boolean;
  formError?: ResolvedText;
  formWarning?: ResolvedText;
  fieldErrors: Record<string, ResolvedText>;
  probeCall(call: CallSpec, form: Record<string, unknown>): Promise<void>;
  onSubmit(form: Record<string, unknown>): void;
  /** Every change of the form's data (the runtime re-evaluates what depends on it, e.g. a submit's '/field' condition). */
  onDataChange?(form: Record<string, unknown>): void;
  /** Handed to widgets as rjsf formContext. */
  api: ScreenApi;
  /** A submit the validation stopped: each failing field and keyword (the funnel's field errors; never a value). */
  onInvalid?(errors: ReadonlyArray<{ field: string; keyword: string }>): void;
}

type FormData = Record<string, unknown>;
type RjsfForm = Form<FormData>;

/** Each input named by its field (email, password …): what a plain post of the form sends (server/spa/forms.ts). */
const fieldName: NameGeneratorFunction = (path) => path.map(String).join('.');

/** The step's rjsf parts: widgets and fields (the host's, the screen's chunk's, ours), and the validator that loads while the form is on screen. */
function useStepParts({ step, validators, widgets, rjsfParts }: Pick<FormStepProps, 'step' | 'validators' | 'widgets' | 'rjsfParts'>) {
  const schema = step.schema as RJSFSchema;
  // A screen whose forms have allOf brings rjsf's merge of it (./all-of.ts).
  if (rjsfParts?.mergeAllOf) provideAllOfMerge(rjsfParts.mergeAllOf);
  const stepWidgets = useMemo(() => ({ ...(rjsfParts?.widgets as RegistryWidgetsType | undefined), hidden: HiddenWidget, ...widgets }), [rjsfParts, widgets]);
  // rjsf's StringField with the form's global ui options (./string-field.tsx); a screen's own fields after it.
  const stepFields = useMemo(() => ({ StringField, ...(rjsfParts?.fields as RegistryFieldsType | undefined) }) as RegistryFieldsType, [rjsfParts]);
  const makeValidator = useContext(ValidatorFactoryContext);
  // Loaded while the form is on screen, ready before anything validates (./deferred-validation.ts).
  // (A form rendered without a host, as in component tests, has all its texts.)
  const textsReady = useOptionalEngineHost()?.textsReady;
  const validator = useMemo(() => new DeferredValidator(validators, schema, makeValidator, textsReady), [makeValidator, validators, schema, textsReady]);
  return { schema, stepWidgets, stepFields, validator };
}

/** The UI schema translated and its conditions applied, the errors' texts, and whether errors are listed on top. */
function useStepTexts(step: StepSpec, scope: Scope, fieldErrors: FormStepProps['fieldErrors'], validator: DeferredValidator, i18n: Texts) {
  const schema = step.schema as RJSFSchema;
  // Re-prepared when the context, flags, texts or a field that a condition reads change; not per keystroke.
  const { ctx, flags, form } = scope;
  const { prepared, summarised } = useMemo(() => {
    const prepared = prepareUiSchema(step.uiSchema, i18n.t, { ctx, flags, form });
    // Forms with more than two fields to fill (checkboxes and hidden fields aside) list their errors on top.
    const fillable = Object.entries((schema.properties ?? {}) as Record<string, { type?: unknown }>).filter(
      ([name, property]) =>
        property.type !== 'boolean' &&
        !prepared.hidden.has(name) &&
        (prepared.uiSchema[name] as { 'ui:widget'?: unknown } | undefined)?.['ui:widget'] !== 'hidden',
    );
    return { prepared, summarised: fillable.length > 2 };
  }, [step.uiSchema, schema, i18n, ctx, flags, form]);
  const transformErrors = useMemo(() => makeTransformErrors(prepared, i18n.t, () => validator.messageKeyFor), [prepared, i18n, validator]);
  const extraErrors = useMemo<ErrorSchema | undefined>(() => {
    const entries = Object.entries(fieldErrors);
    if (entries.length === 0) return undefined;
    return Object.fromEntries(entries.map(([field, text]) => [field, { __errors: [i18n.t(text.key, text.values)] }])) as ErrorSchema;
  }, [fieldErrors, i18n]);
  return { prepared, transformErrors, extraErrors, summarised };
}

/**
 * A page the server prerendered was usable before this script: when this form hydrates it, what was
 * typed or ticked in it becomes the form's data (the email's probe runs on it), and a submit pressed
 * meanwhile, held by src/early.ts, is made now. Before the browser paints, so the fields never show
 * anything else. A form the app draws itself holds only its initial data: nothing is read from it.
 * Once, when the step's form mounts.
 */
function useTakeOver(formRef: RefObject<RjsfForm | null>, schema: RJSFSchema, initialData: FormData) {
  // Whether the page was hydrating when the form mounted (the schema and the data it starts with do not change while it is).
  const [hydrating] = useState(useHydrating());
  useLayoutEffect(() => {
    const form = formRef.current?.formElement.current;
    if (!form) return;
    if (hydrating)
      for (const [field, value] of Object.entries(readEarlyInput(form, schema, initialData))) formRef.current?.setFieldValue(field, value as FormData);
    if (takeOver(form)) setTimeout(() => form.requestSubmit(), 0);
  }, [formRef, hydrating, schema, initialData]);
}

/** Probes: debounced calls when a field changes (e.g. the authentication-state check); the initial values count as probed. */
function useProbes(step: StepSpec, initialData: FormData, dataRef: RefObject<FormData>, run: FormStepProps['probeCall'], valid: Validity) {
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  // A probe runs on a change, not when the form appears.
  const probed = useRef(new Map<string, unknown>(Object.entries(initialData)));
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);
  const fire = async (probe: ProbeSpec, value: unknown) => {
    if (dataRef.current[probe.field] !== value || value === undefined) return;
    if (probe.whenValid && !(await isValid(valid, probe.field, value, dataRef))) return;
    void run(probe, dataRef.current);
  };
  const runProbes = (data: FormData) => {
    for (const probe of step.probes ?? []) {
      const value = data[probe.field];
      if (probed.current.get(probe.field) === value) continue;
      probed.current.set(probe.field, value);
      clearTimeout(timers.current.get(probe.field));
      timers.current.set(
        probe.field,
        setTimeout(() => void fire(probe, value), probe.debounceMs ?? 0),
      );
    }
  };
  return { probed, runProbes };
}

/** What validates the form (a probe with whenValid runs only for a valid field). */
type Validity = [validator: DeferredValidator, schema: RJSFSchema, transformErrors: ErrorTransformer];

/** Whether a probe's field (still holding `value`) is valid, once the validator is there. */
async function isValid([validator, schema, transformErrors]: Validity, field: string, value: unknown, dataRef: RefObject<FormData>): Promise<boolean> {
  if (!validator.isReady()) await validator.ready().catch(() => undefined);
  if (!validator.isReady() || dataRef.current[field] !== value) return false;
  const { errors } = validator.validateFormData(dataRef.current, schema, undefined, transformErrors);
  return !errors.some((error) => fieldOf(error) === field);
}

/** What the runtime may do with the form (FormStepHandle). */
function formHandle(
  stepName: string,
  formRef: RefObject<RjsfForm | null>,
  dataRef: RefObject<FormData>,
  pending: PendingChanges,
  probed: RefObject<Map<string, unknown>>,
): FormStepHandle {
  return {
    stepName,
    // What the fields show, including keys not yet handed to rjsf (see typing.tsx).
    data: () => pending.overlay(dataRef.current),
    clear: (fields) => {
      const next = { ...dataRef.current };
      for (const field of fields) delete next[field];
      // A programmatic change is no user change: the next user change is compared with it.
      for (const field of fields) probed.current.set(field, undefined);
      dataRef.current = next;
      // What is still being typed there is dropped: the clear wins.
      pending.discard(fields);
      for (const field of fields) formRef.current?.setFieldValue(field, undefined);
    },
    set: (values) => {
      dataRef.current = { ...dataRef.current, ...values };
      pending.discard(Object.keys(values));
      for (const [field, value] of Object.entries(values)) {
        probed.current.set(field, value);
        // rjsf types the value as the whole form's data type; any field value is meant.
        formRef.current?.setFieldValue(field, value as FormData);
      }
    },
  };
}

/**
 * One form step rendered by rjsf with the step's precompiled validator (no schema is compiled
 * in the browser). Validation runs on submit, then on blur; never on every keystroke.
 */
export function FormStep(props: FormStepProps) {
  const { ref, stepName, step, scope, busy, submitLabel, submitDisabled, formError, formWarning, fieldErrors, probeCall, onSubmit, onDataChange, api } = props;
  const { t, i18n } = useTranslation();
  // rjsf holds the data (uncontrolled: initialFormData, no formData prop). A controlled form would
  // re-derive its whole state twice per keystroke: once for the change and once for the echo.
  const [initialData] = useState<FormData>(() => props.initialData);
  const formRef = useRef<RjsfForm>(null);
  const dataRef = useRef(initialData);
  const [submitted, setSubmitted] = useState(false);
  const [pending] = useState(() => new PendingChanges());
  const { schema, stepWidgets, stepFields, validator } = useStepParts(props);
  const validatorRef = useRef(validator);
  validatorRef.current = validator;
  // rjsf's `tagName`: a stable component, else the <form> would remount on every render.
  // A plain form (step.plainForm) says so to src/early.ts, which posts it as it is if the app does not come.
  const [FormTag] = useState(() => {
    const plain = step.plainForm === true ? { 'data-fd-plain': '' } : {};
    return (tagProps: ComponentPropsWithRef<'form'>) => <GuardedForm {...tagProps} {...plain} pending={pending} validator={validatorRef} />;
  });
  const { prepared, transformErrors, extraErrors, summarised } = useStepTexts(step, scope, fieldErrors, validator, i18n);
  const formElement = (): HTMLFormElement | null | undefined => formRef.current?.formElement.current;
  useTakeOver(formRef, schema, initialData);
  // Errors the server gives a field (this step's, or the outcome's that led here): focus goes to the first.
  useEffect(() => {
    if (Object.keys(fieldErrors).length > 0) focusFirstInvalid(formRef.current?.formElement.current);
  }, [fieldErrors]);
  const { probed, runProbes } = useProbes(step, initialData, dataRef, probeCall, [validator, schema, transformErrors]);
  useImperativeHandle(ref, () => formHandle(stepName, formRef, dataRef, pending, probed));

  const handleChange = (event: IChangeEvent<FormData>) => {
    const data = event.formData ?? {};
    dataRef.current = data;
    runProbes(data);
    onDataChange?.(data);
  };

  return (
    <PendingChangesProvider value={pending}>
      <Form<FormData>
        className="fd-form"
        idPrefix={`fd_${stepName}`}
        nameGenerator={fieldName}
        // Posted to the page's own address when it is a plain form without its script (step.plainForm).
        method="post"
        schema={schema}
        ref={formRef}
        tagName={FormTag}
        uiSchema={prepared.uiSchema}
        initialFormData={initialData}
        validator={validator}
        templates={templates}
        widgets={stepWidgets}
        fields={stepFields}
        formContext={api}
        transformErrors={transformErrors}
        extraErrors={extraErrors}
        noHtml5Validate
        showErrorList={summarised ? 'top' : false}
        // After a submit that failed validation: the first invalid field, in the order shown.
        focusOnFirstError={() => focusFirstInvalid(formElement())}
        liveValidate={submitted ? 'onBlur' : undefined}
        onChange={handleChange}
        onError={(errors) => {
          setSubmitted(true);
          props.onInvalid?.(invalidFields(errors));
        }}
        onSubmit={(event) => {
          setSubmitted(true);
          onSubmit(event.formData ?? {});
        }}
      >
        <FormAlerts error={formError} warning={formWarning} />
        {submitLabel ? (
          <Button
            type="submit"
            variant="primary"
            block
            busy={busy}
            disabled={submitDisabled}
            // Focus stays in the field: its blur validation would otherwise remove an error line and move
            // the button from under the pointer between mousedown and mouseup, losing the click.
            onMouseDown={(event) => event.preventDefault()}
          >
            {t(submitLabel.key, submitLabel.values)}
          </Button>
        ) : null}
      </Form>
    </PendingChangesProvider>
  );
}
