/**
 * Emails compare case-insensitively; phones by their digits, so `?to=+14155550123` matches even when
 * the unencoded '+' arrives as a space (/dev/outbox's filter).
 */
export function sameAddress(stored: string, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  if (!w) return false;
  if (stored.toLowerCase() === w) return true;
  const digits = (v: string) => v.replace(/[\s+().-]/g, '');
  return /^[\d\s+().-]+$/.test(w) && /^\+?[\d\s().-]+$/.test(stored) && digits(stored) === digits(w);
}
