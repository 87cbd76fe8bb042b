import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../src/lib/i18n';
import { elapsedMs, formatElapsed, isRunning, isTicketId, useFeatureFlag, useTicketStatuses, useTicketTimers } from '../../../src/platform';
import type { ContentProps } from '../content-props';
import { Alert } from '../../../src/ui';

type Timers = ReturnType<typeof useTicketTimers>;

/** One timer: its ticket, the time on it, whether it runs; stop or resume, remove. */
function TimerItem({ timer, now, start, stop, remove }: { timer: Timers['timers'][number] } & Pick<Timers, 'now' | 'start' | 'stop' | 'remove'>) {
  const { t } = useTranslation();
  const running = isRunning(timer.timerSets);
  return (
    <li data-testid={`ticket-timer-${timer.ticketId}`}>
      <span>{t('platform.timers.ticket', { id: timer.ticketId })}</span>{' '}
      <span role="timer" aria-live="off">
        {formatElapsed(elapsedMs(timer.timerSets, now))}
      </span>{' '}
      <span>{running ? t('platform.timers.running') : t('platform.timers.stopped')}</span>{' '}
      {running ? (
        <button type="button" className="fd-button fd-button--secondary" onClick={() => stop(timer.ticketId)}>
          {t('platform.timers.stop')}
        </button>
      ) : (
        <button type="button" className="fd-button fd-button--secondary" onClick={() => start(timer.ticketId)}>
          {t('platform.timers.resume')}
        </button>
      )}{' '}
      <button type="button" className="fd-button fd-button--secondary" onClick={() => remove(timer.ticketId)}>
        {t('platform.timers.remove')}
      </button>
    </li>
  );
}

/** The form that starts a timer by ticket number: a number that is not a ticket's says so. */
function StartTimer({ available, start }: Pick<Timers, 'available' | 'start'>) {
  const { t } = useTranslation();
  const [ticket, setTicket] = useState('');
  const [invalid, setInvalid] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const id = ticket.trim();
    if (!isTicketId(id)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    start(id);
    setTicket('');
  };
  return (
    <form className="fd-form" onSubmit={onSubmit} noValidate>
      <div className={`fd-field${invalid ? ' fd-field--invalid' : ''}`}>
        <label className="fd-field__label" htmlFor={inputId}>
          {t('platform.timers.ticketLabel')}
        </label>
        <input
          id={inputId}
          className="fd-input"
          inputMode="numeric"
          autoComplete="off"
          value={ticket}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          onChange={(event) => setTicket(event.target.value)}
        />
        {invalid ? (
          <p id={errorId} className="fd-field__error">
            {t('platform.timers.invalidTicket')}
          </p>
        ) : null}
      </div>
      <button type="submit" className="fd-button fd-button--secondary" disabled={!available}>
        {t('platform.timers.start')}
      </button>
    </form>
  );
}

/** Ticket timers kept in localStorage: start by ticket number, stop, remove; they survive a reload. */
export default function TicketTimers(_props: ContentProps) {
  const { t } = useTranslation();
  const enabled = useFeatureFlag('ticketTimers');
  const { timers, now, available, start, stop, remove } = useTicketTimers();
  const statuses = useTicketStatuses();
  if (!enabled) return null;
  return (
    <section className="fd-card fd-platform-timers" aria-label={t('platform.timers.title')}>
      <h2 className="fd-card__title">{t('platform.timers.title')}</h2>
      {!available ? (
        <Alert kind="warning" className="fd-form-warning">
          {t('platform.timers.unavailable')}
        </Alert>
      ) : null}
      <StartTimer available={available} start={start} />
      {timers.length === 0 ? (
        <p className="fd-card__line fd-block--muted">{t('platform.timers.none')}</p>
      ) : (
        <ul className="fd-platform-timers__list" aria-label={t('platform.timers.listLabel')}>
          {timers.map((timer) => (
            <TimerItem key={timer.ticketId} timer={timer} now={now} start={start} stop={stop} remove={remove} />
          ))}
        </ul>
      )}
      {statuses.status === 'error' ? (
        <Alert kind="error" role="alert" className="fd-form-error">
          {t('ticketing.errorFetchingStatusList')}
        </Alert>
      ) : null}
      {statuses.status === 'loaded' ? (
        <p className="fd-card__line fd-block--muted">{t('platform.timers.statuses', { statuses: statuses.statuses.map((s) => s.name).join(', ') })}</p>
      ) : null}
    </section>
  );
}
