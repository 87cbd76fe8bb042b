/**
 * Platform modules the surrounding product uses (docs/platform.md): help-centre single sign-on,
 * session and feature flags, ticket timers, ticket statuses, error-reporting state, constants.
 * Pure logic and React hooks; import from 'src/platform' only.
 */
export * from './helpcenter';
export * from './session';
export * from './feature-flags';
export * from './ticket-timers';
export * from './ticket-statuses';
export * from './error-reporting-state';
export * from './constants';
