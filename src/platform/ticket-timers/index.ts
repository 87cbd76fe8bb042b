export * from './timers';
export * from './useTicketTimers';
