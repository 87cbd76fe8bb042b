import { useLayoutEffect, useRef } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from '../../src/lib/i18n';
import { useEngineHost } from '../../src/engine';
import { screenApiOf } from '../screen-api';

/**
 * "Don't ask again on this device for N days" at /mfa: a checkbox (N, the tenant's number of days,
 * from the context value ui:options.daysFrom; nothing is shown without it). When the step is submitted
 * with it ticked — by the button, or by a widget such as the security key's or Duo's — it first
 * records the choice on the login token (mfaTrustDevice, ui:options.loginTokenFrom), so the answer
 * that signs in also makes this browser trusted. The choice never holds the sign-in up: a failure to
 * record it only means the second factor is asked again next time.
 */
export default function TrustDeviceWidget({ id, name, value, onChange, options, registry, disabled, readonly }: WidgetProps) {
  const { t } = useTranslation();
  const { call } = useEngineHost();
  const api = screenApiOf(registry);
  const apiRef = useRef(api);
  apiRef.current = api;
  const daysFrom = typeof options.daysFrom === 'string' ? options.daysFrom : 'trustDays';
  const tokenFrom = typeof options.loginTokenFrom === 'string' ? options.loginTokenFrom : 'loginToken';
  const days = Number(api?.ctx[daysFrom] ?? 0);
  const checked = value === true;
  const checkedRef = useRef(checked);
  checkedRef.current = checked;

  useLayoutEffect(
    () =>
      apiRef.current?.beforeSubmit?.(async (form) => {
        const loginToken = apiRef.current?.ctx[tokenFrom];
        if ((form[name] === true || checkedRef.current) && typeof loginToken === 'string') {
          await call('mfaTrustDevice', { loginToken, trust: true }, {}).catch(() => undefined);
        }
        return {};
      }),
    [call, name, tokenFrom],
  );

  if (!Number.isInteger(days) || days <= 0) return null;
  return (
    <div className="checkbox">
      <label htmlFor={id}>
        <input type="checkbox" id={id} name={name} checked={checked} disabled={disabled || readonly} onChange={(event) => onChange(event.target.checked)} />
        <span>{t('trustedDevice.label', { count: days })}</span>
      </label>
    </div>
  );
}
