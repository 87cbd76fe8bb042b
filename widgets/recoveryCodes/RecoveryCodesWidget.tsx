import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from '../../src/lib/i18n';
import { Button } from '../../src/ui';
import { CopyButton } from '../../src/ui/CopyButton';
import { screenApiOf } from '../screen-api';
import './recovery-codes.css';

const CODE = /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/** The codes of a context value, if they look like codes (the answer was validated; this keeps the page safe anyway). */
export function codesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string' && CODE.test(c)) : [];
}

/**
 * A new set of recovery codes (the context value ui:options.codesFrom), shown once, with three ways
 * to keep it: Copy (every code, one a line), Download (a text file) and Print (the codes alone on the
 * page). The field holds no value.
 */
export default function RecoveryCodesWidget({ options, registry }: WidgetProps) {
  const { t } = useTranslation();
  const codesFrom = typeof options.codesFrom === 'string' ? options.codesFrom : 'recoveryCodes';
  const codes = codesOf(screenApiOf(registry)?.ctx[codesFrom]);
  if (codes.length === 0) return null;
  const file = [t('recoveryCodes.file.heading', { site: window.location.host }), '', ...codes, '', t('recoveryCodes.file.note'), ''].join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([file], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `recovery-codes-${window.location.hostname}.txt`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="fd-recovery-codes">
      <div className="fd-recovery-codes__print">
        {/* Data, not text: a browser translator must leave the codes as they are. */}
        <ol className="fd-recovery-codes__list" translate="no" aria-label={t('recoveryCodes.listLabel')}>
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ol>
      </div>
      <div className="fd-recovery-codes__actions">
        <CopyButton text={codes.join('\n')} label={t('recoveryCodes.copy')} copiedLabel={t('recoveryCodes.copied')} />
        <Button variant="secondary" onClick={download}>
          {t('recoveryCodes.download')}
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          {t('recoveryCodes.print')}
        </Button>
      </div>
    </div>
  );
}
