import { createContext } from 'react';
import type { ScreenEntry } from '../engine';

/**
 * What the server fills in per request in a page the build prerendered (scripts/prerender.ts renders
 * a slot's token in its place, server/spa/html.ts writes the value): the copyright's current year; and for
 * the pages that answer a plain form's post (server/spa/forms.ts), the state the screen shows and a
 * message above it. The browser renders the values themselves (no provider: the defaults).
 */
export interface Slots {
  /** The current year (the footer's copyright). */
  year?: string;
  /** The screen's state other than its first (a step, an error or warning). */
  start?: ScreenEntry['start'];
  /** A message in the message bar from the start. */
  message?: { key: string; kind: 'success' | 'info' | 'warning' | 'error' };
}

export const SlotsContext = createContext<Slots>({});
