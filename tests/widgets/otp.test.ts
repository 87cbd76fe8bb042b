import { describe, expect, it } from 'vitest';
import { codeDigits } from '../../widgets/otp/code-digits';

describe('a one-time code as typed or pasted', () => {
  it('keeps the digits, drops separators, and stops at the length', () => {
    expect(codeDigits(' 123 456 ', 6)).toBe('123456');
    expect(codeDigits('123-4567', 6)).toBe('123456');
    expect(codeDigits('abc', 6)).toBe('');
  });

  it('reads digits typed on an Arabic or Persian keyboard as 0–9', () => {
    expect(codeDigits('١٢٣ ٤٥٦', 6)).toBe('123456');
    expect(codeDigits('۰۱۲۳۴۵۶۷۸۹', 10)).toBe('0123456789');
    expect(codeDigits('١2٣4٥6', 6)).toBe('123456');
  });
});
