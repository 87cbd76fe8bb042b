// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import PhoneWidget, { defaultCountryFor, toE164 } from '../../widgets/phone/PhoneWidget';
import phoneDef from '../../schemas/defs/phone.json';

afterEach(cleanup);

const e164 = new RegExp(phoneDef.pattern);

function renderWidget(props: Partial<WidgetProps> = {}) {
  const onChange = vi.fn();
  const all = {
    id: 'fd_phone',
    name: 'phone',
    label: 'Cell Phone',
    value: undefined,
    required: true,
    disabled: false,
    readonly: false,
    autofocus: false,
    onChange,
    onBlur: vi.fn(),
    onFocus: vi.fn(),
    options: { emptyValue: undefined },
    schema: {},
    registry: {} as WidgetProps['registry'],
    rawErrors: [],
    placeholder: '',
    ...props,
  } as unknown as WidgetProps;
  // Controlled like rjsf does it: the emitted value comes back as the value prop.
  function Host() {
    const [value, setValue] = useState<unknown>(all.value);
    return (
      <>
        <label htmlFor="fd_phone">Cell Phone</label>
        <PhoneWidget
          {...all}
          value={value}
          onChange={(next: unknown) => {
            onChange(next);
            setValue(next);
          }}
        />
      </>
    );
  }
  render(<Host />);
  return onChange;
}

describe('phone widget', () => {
  it('a valid number typed before the app (the form value as typed) becomes E.164', async () => {
    const onChange = renderWidget({ value: '+1 (415) 555-0142', options: { emptyValue: undefined, defaultCountry: 'US' } });
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith('+14155550142'));
    // Shown as any number set from outside is: in international format.
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Cell Phone' }).value).toBe('+1 415 555 0142');
    // Control: a text that is no number is left as it is (it fails the pattern, so the form says Invalid).
    cleanup();
    const untouched = renderWidget({ value: '12', options: { emptyValue: undefined, defaultCountry: 'US' } });
    await new Promise((done) => setTimeout(done, 50));
    expect(untouched).not.toHaveBeenCalled();
  });

  it('emits E.164 for a valid number and the raw text (failing the def pattern) otherwise', async () => {
    const onChange = renderWidget({ options: { emptyValue: undefined, defaultCountry: 'US' } });
    const input = screen.getByRole('textbox', { name: 'Cell Phone' });
    expect(input.getAttribute('autocomplete')).toBe('tel');
    expect(input.getAttribute('type')).toBe('tel');
    await userEvent.type(input, '(415) 555-0123');
    expect(onChange).toHaveBeenLastCalledWith('+14155550123');
    expect(e164.test('+14155550123')).toBe(true);
    await userEvent.clear(input);
    expect(onChange).toHaveBeenLastCalledWith(undefined);
    await userEvent.type(input, '12 34');
    expect(onChange).toHaveBeenLastCalledWith('12 34');
    expect(e164.test('12 34')).toBe(false);
  });

  it('shows a prefilled E.164 value in international format', () => {
    renderWidget({ value: '+14155550188' });
    expect((screen.getByRole('textbox', { name: 'Cell Phone' }) as HTMLInputElement).value).toBe('+1 415 555 0188');
  });

  it('picks the default country from the option, else the browser language region', () => {
    expect(defaultCountryFor('gb', 'en-US')).toBe('GB');
    expect(defaultCountryFor(undefined, 'de-DE')).toBe('DE');
    expect(defaultCountryFor('zz', 'en')).toBeUndefined();
    expect(toE164('020 7946 0018', 'GB')).toBe('+442079460018');
    expect(toE164('+1234567', undefined)).toBeUndefined();
  });
});
