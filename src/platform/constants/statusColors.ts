/** Colours of entity statuses (SPEC §3 status colour map). */
export const STATUSES = ['ARCHIVED', 'DISABLED', 'ENABLED'] as const;
export type Status = (typeof STATUSES)[number];

export const STATUS_COLORS: Readonly<Record<Status, string>> = Object.freeze({
  ARCHIVED: '#949597',
  DISABLED: '#d53948',
  ENABLED: '#26a644',
});

/** The colour of a status; undefined for an unknown one. */
export function statusColor(status: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(STATUS_COLORS, status) ? STATUS_COLORS[status as Status] : undefined;
}
