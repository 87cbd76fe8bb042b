/**
 * Types of a screen file (screens/*.json) and of the shared outcomes (screens/shared/outcomes.json).
 * schemas/screen.schema.json is the authority: the build validates every file against it, so these
 * types describe checked data. The engine renders them, the check and the studio read them.
 */

/** A context name or environment flag, optionally negated with '!'. */
export type Flag = string;
export type Condition = Flag | Flag[];

/** See the meta-schema's "source" definition. */
export type Source = string | { const: unknown } | { map: Mapping } | { mask: Source; keepLast?: number } | boolean | number;
export type Mapping = Record<string, Source>;

export type TextRef = string | { key: string; values?: Mapping };

export interface MessageSpec {
  key: string;
  values?: Mapping;
  kind?: 'success' | 'info' | 'warning' | 'error';
  permanent?: boolean;
}

export interface NavigateSpec {
  to: string;
  params?: Mapping;
  query?: Mapping;
  stateParam?: Mapping;
  routerState?: Mapping;
  replace?: boolean;
}

export interface Outcome {
  assign?: Mapping;
  actions?: string[];
  report?: boolean;
  message?: MessageSpec;
  error?: TextRef;
  warning?: TextRef;
  fieldErrors?: Record<string, TextRef>;
  clear?: string[];
  setFields?: Mapping;
  step?: string;
  navigate?: NavigateSpec;
  redirect?: Source;
  /** true: go on with the call's answer; a mapping: the answer it names (an outcome without a call, e.g. a 'Continue' after signing in). */
  authenticate?: boolean | Mapping;
  resubmit?: boolean;
}

export type Outcomes = Record<string, Outcome>;

/**
 * Outcomes the catalogue shares (screens/shared/outcomes.json, schemas/outcomes.schema.json):
 * `defaults` every call inherits (the bot check), `visitorDefaults` the calls the visitor makes
 * inherit (network, time-out), named `blocks`
 * a call includes by name (the sign-in routing), and the `unhandled` outcome of a code nothing handles.
 */
export interface SharedOutcomes {
  defaults: Outcomes;
  visitorDefaults: Outcomes;
  blocks: Record<string, Outcomes>;
  unhandled: Outcome;
}

export interface CallSpec {
  operation: string;
  body?: Mapping;
  resultFrom?: string;
  retryEveryMs?: number;
  botCheckAction?: string;
  outcomes?: Outcomes;
  /** Names of shared outcome blocks (screens/shared/outcomes.json) whose entries apply where this table has none. */
  include?: string[];
}

/** A submit calls an operation, or (without one) runs 'outcome' with the form's values, e.g. a Continue to the next step. */
export interface SubmitSpec extends Partial<CallSpec> {
  when?: Condition;
  /** The button is disabled, and the form submits nothing, while this holds. */
  disabledWhen?: Condition;
  label: TextRef;
  /** false: no submit button; a widget submits through the screen API. */
  button?: boolean;
  outcome?: Outcome;
}

export interface ProbeSpec extends CallSpec {
  field: string;
  debounceMs?: number;
  whenValid?: boolean;
}

export interface EnterAction extends Partial<CallSpec> {
  when?: Condition;
  outcome?: Outcome;
}

export interface TimerSpec {
  afterMs: number;
  when?: Condition;
  /** A context name holding the whole seconds left, updated every second (a visible countdown). */
  countdown?: string;
  outcome: Outcome;
}

export type BlockType = 'heading' | 'text' | 'link' | 'button' | 'card' | 'spinner' | 'component';

/** The status icons screen data may name (a step's heading, a card): src/ui/icons.tsx STATUS_ICONS. */
export type IconName = 'success' | 'error' | 'warning' | 'info' | 'email' | 'person';

/** A card line: a text, or a text that is a mailto: link to an address (e.g. the account manager's). */
export type CardLine = TextRef | { text: TextRef; email: Source };

export interface Block {
  type: BlockType;
  text?: TextRef;
  title?: TextRef;
  lines?: CardLine[];
  /** card: an icon beside its lines. */
  icon?: IconName;
  to?: string;
  href?: Source;
  newTab?: boolean;
  call?: CallSpec;
  outcome?: Outcome;
  /** Buttons (and links that lead on like one): primary, secondary, tertiary, link; texts: muted, warning (an alert), status (announced politely). */
  variant?: 'primary' | 'secondary' | 'tertiary' | 'link' | 'muted' | 'warning' | 'status';
  /** component: a name of widgets/content/registry.ts. */
  name?: string;
  /** button: run only after this many ms without another click (e.g. 'Resend code'). */
  debounceMs?: number;
  when?: Condition;
  /** button: disabled while this holds. */
  disabledWhen?: Condition;
}

/** A JSON Schema object as written in a screen file (refs already inlined by the build). */
export type JsonSchema = Record<string, unknown>;
export type UiSchema = Record<string, unknown>;

export interface StepSpec {
  title?: TextRef;
  /** A status icon above the heading (success and confirmation pages). */
  icon?: IconName;
  schema?: JsonSchema;
  uiSchema?: UiSchema;
  initialData?: Mapping;
  blocks?: { before?: Block[]; after?: Block[] };
  submit?: SubmitSpec | SubmitSpec[];
  probes?: ProbeSpec[];
  /** The form also works as a plain HTML form posted to the server (no JavaScript needed; server/spa/forms.ts). */
  plainForm?: boolean;
}

export interface StateField {
  type: 'string' | 'boolean' | 'number' | 'stringArray';
  enum?: string[];
  maxLength?: number;
}

export interface RouteSpec {
  path: string;
  context?: Record<string, unknown>;
  /** The page title and first heading on this route, for routes of one screen that differ only in texts. */
  title?: string;
}

export interface ScreenFile {
  id: string;
  title: string;
  description?: string;
  layout?: 'card' | 'wide';
  /** None: the screen is mounted by code with its context (the Verify MFA modal). */
  routes?: RouteSpec[];
  requiresSession?: boolean;
  queryMessages?: Record<string, MessageSpec>;
  context?: Record<string, unknown>;
  /** `otherwise`: what a missing, malformed or incomplete state parameter leads to (the screen file says where: the engine names no route). */
  stateParam?: { fields: Record<string, StateField>; required?: string[]; otherwise: Outcome };
  onEnter?: EnterAction[];
  timers?: TimerSpec[];
  initialStep: string;
  steps: Record<string, StepSpec>;
}
