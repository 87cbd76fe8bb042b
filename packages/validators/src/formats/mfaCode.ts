/** `mfa-code`: exactly 6 ASCII digits (SPEC §5 MFA code; message "Invalid code"). */
const RE = /^[0-9]{6}$/;

export function mfaCode(s: string): boolean {
  return s.length === 6 && RE.test(s);
}
