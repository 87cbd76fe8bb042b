/** IDNA A-label validation (RFC 5890/5891/5892). Placeholder: punycode shape only. */
export function isValidALabel(label: string): boolean {
  return /^xn--[a-z0-9-]+$/i.test(label) && !label.endsWith("-");
}
