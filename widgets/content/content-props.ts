import type { ScreenApi } from '../../src/engine';

/** A content component gets the hosting screen's API: its context, calls and outcomes. */
export type ContentProps = ScreenApi;
