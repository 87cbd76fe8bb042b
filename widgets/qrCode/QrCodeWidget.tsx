import { QRCodeSVG } from 'qrcode.react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { screenApiOf } from '../screen-api';

/** Only authenticator-app URLs become a QR code (the value comes from the server). */
const OTPAUTH = /^otpauth:\/\/totp\/[^\s]{1,1024}$/;

/**
 * Authenticator-app setup: a QR code (qrcode.react, SVG, this lazy chunk) of the otpauth:// URL held in
 * the context value ui:options.valueFrom, and the field's own value (the key) read-only beside it for
 * manual entry. The field's label names the key input.
 */
export default function QrCodeWidget({ id, htmlName, value, options, registry }: WidgetProps) {
  const { t } = useTranslation();
  const api = screenApiOf(registry);
  const valueFrom = typeof options.valueFrom === 'string' ? options.valueFrom : 'qrUrl';
  const url = api?.ctx[valueFrom];
  return (
    <div className="fd-qr">
      {typeof url === 'string' && OTPAUTH.test(url) ? (
        <QRCodeSVG value={url} size={176} marginSize={2} role="img" aria-label={t('mfaSetup.totp.qrLabel')} />
      ) : (
        <p className="fd-form-error" role="alert">{t('mfaSetup.totp.qrMissing')}</p>
      )}
      <input
        id={id}
        name={htmlName || id}
        className="fd-input fd-input--key"
        type="text"
        readOnly
        value={typeof value === 'string' ? value : ''}
        aria-describedby={ariaDescribedByIds(id)}
        spellCheck={false}
      />
    </div>
  );
}
