import { QRCodeSVG } from 'qrcode.react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { useTranslation } from '../../src/lib/i18n';
import { Alert } from '../../src/ui';
import { CopyButton } from '../../src/ui/CopyButton';
import './qr-code.css';
import { screenApiOf } from '../screen-api';

/** Only authenticator-app URLs become a QR code (the value comes from the server). */
const OTPAUTH = /^otpauth:\/\/totp\/[^\s]{1,1024}$/;

/**
 * Authenticator-app setup: a QR code (qrcode.react, SVG, this lazy chunk) of the otpauth:// URL held in
 * the context value ui:options.valueFrom, and the field's own value (the key) for manual entry: read-only,
 * wrapped on a phone (never cut off), with a copy button. The field's label names the key.
 */
export default function QrCodeWidget({ id, htmlName, value, options, registry }: WidgetProps) {
  const { t } = useTranslation();
  const api = screenApiOf(registry);
  const valueFrom = typeof options.valueFrom === 'string' ? options.valueFrom : 'qrUrl';
  const url = api?.ctx[valueFrom];
  const key = typeof value === 'string' ? value : '';
  return (
    <div className="fd-qr">
      {typeof url === 'string' && OTPAUTH.test(url) ? (
        <QRCodeSVG value={url} size={176} marginSize={2} role="img" aria-label={t('mfaSetup.totp.qrLabel')} />
      ) : (
        <Alert kind="error" role="alert" className="fd-form-error">
          {t('mfaSetup.totp.qrMissing')}
        </Alert>
      )}
      <div className="fd-qr__key">
        <textarea
          id={id}
          name={htmlName || id}
          className="fd-input fd-input--key"
          rows={1}
          readOnly
          value={key}
          aria-describedby={ariaDescribedByIds(id)}
          spellCheck={false}
        />
        {key ? <CopyButton text={key} label={t('mfaSetup.totp.copyKey')} copiedLabel={t('mfaSetup.totp.keyCopied')} fallbackTarget={id} /> : null}
      </div>
    </div>
  );
}
