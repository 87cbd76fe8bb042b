/** The funnel's events waiting to be sent, and the step shown last (./funnel.ts fills them, ./funnel-send.ts sends them). */
import type { FunnelEvent } from '../engine';

/** An event as POST /ws/events takes it (schemas/api/funnelEvents.json). */
export type QueuedEvent = { kind: FunnelEvent['kind'] | 'leave'; screen: string; step: string; field?: string; keyword?: string; code?: string; ms?: number };

export const queue: QueuedEvent[] = [];
/** The step shown last and when: a `leave` names it unless the visitor completed it. */
export const shown: { screen?: string; step?: string; at: number; completed: boolean } = { at: 0, completed: false };
