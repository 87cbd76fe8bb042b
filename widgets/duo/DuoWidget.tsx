import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from '../../src/lib/i18n';
import { Alert, Button, Spinner } from '../../src/ui';
import { screenApiOf } from '../screen-api';
import { DUO_STATUS_TEXT, useDuoPrompt } from './duo-prompt';

/**
 * Duo at sign-in: a Continue button that opens the Duo prompt (URL and channel from the context values
 * named by ui:options.urlFrom / channelFrom); the code that arrives is submitted as the form field
 * ui:options.codeField through the screen's submit (the step's submit for this method has no button).
 */
export default function DuoWidget({ options, registry }: WidgetProps) {
  const { t } = useTranslation();
  const api = screenApiOf(registry);
  const codeField = typeof options.codeField === 'string' ? options.codeField : 'code';
  const { status, start } = useDuoPrompt((code) => void api?.submit({ [codeField]: code }));
  const text = DUO_STATUS_TEXT[status];
  const waiting = status === 'waiting';
  const urlFrom = typeof options.urlFrom === 'string' ? options.urlFrom : 'duoUrl';
  const channelFrom = typeof options.channelFrom === 'string' ? options.channelFrom : 'duoChannelId';
  return (
    <div className="fd-duo">
      {text && waiting ? (
        <p className="fd-status" role="status">
          <Spinner />
          {t(text.key)}
        </p>
      ) : text ? (
        <Alert kind={text.warning ? 'warning' : 'error'} role="alert" className={text.warning ? 'fd-form-warning' : 'fd-form-error'}>
          {t(text.key)}
        </Alert>
      ) : null}
      <Button
        variant="primary"
        block
        // While the prompt is open it is the way on: a second click would open a second one.
        busy={waiting}
        aria-disabled={api?.busy || undefined}
        onClick={() => {
          if (!api || api.busy || waiting) return;
          start(api.ctx[urlFrom], api.ctx[channelFrom]);
        }}
      >
        {t('mfa.continue')}
      </Button>
    </div>
  );
}
