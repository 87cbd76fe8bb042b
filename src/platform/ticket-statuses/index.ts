export * from './ticketStatuses';
export * from './useTicketStatuses';
