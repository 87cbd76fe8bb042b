/**
 * The engine's only door: what the app, its hosts, the widgets, the studio and the build may use of
 * the screen runtime (dependency-cruiser's engine-has-one-door refuses any deeper import from outside
 * src/engine; the engine's own tests may reach its modules). The screen files' types are the
 * catalogue language's (catalogue/language/types.ts), passed on here with the engine's own.
 */
export type * from './types';
export {
  EngineHostProvider,
  useEngineHost,
  useOptionalEngineHost,
  type EngineHost,
  type HostCallOptions,
  type HostCallResult,
  type HostMessage,
  type PrefetchTargets,
  type FunnelEvent,
} from './host';
export { ScreenRuntime } from './ScreenRuntime';
export { ScreenRoute } from './ScreenRoute';
export type { BeforeSubmitHook, ScreenApi } from './runtime-api';
export type { Scope } from '../../catalogue/language/scope';
export { planOutcome, type OutcomePlan } from '../../catalogue/language/outcomes';
export { decodeBase64url, encodeState } from '../../catalogue/language/state-param';
export { lazyPart, type LazyPartOptions } from './lazy-part';
export { useFieldInput, type FieldInputAttributes } from './form/field-input';
export { focusStepStart } from './focus-after-change';
export type { SelfLabelledWidget } from './form/templates';
export { ValidatorFactoryContext, type ValidatorFactory } from './form/validator-factory';
