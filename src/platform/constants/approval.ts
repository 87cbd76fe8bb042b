/** Approval decisions (SPEC §3) and their label keys. */
export const APPROVAL = Object.freeze({ APPROVED: 'APPROVED', REJECTED: 'REJECTED', MANUAL: 'MANUAL' } as const);
export type Approval = (typeof APPROVAL)[keyof typeof APPROVAL];
export const APPROVALS: readonly Approval[] = Object.freeze([APPROVAL.APPROVED, APPROVAL.REJECTED, APPROVAL.MANUAL]);

export const APPROVAL_LABEL_KEYS: Readonly<Record<Approval, string>> = Object.freeze({
  APPROVED: 'platform.approval.APPROVED',
  REJECTED: 'platform.approval.REJECTED',
  MANUAL: 'platform.approval.MANUAL',
});

export function isApproval(value: unknown): value is Approval {
  return typeof value === 'string' && (APPROVALS as readonly string[]).includes(value);
}
