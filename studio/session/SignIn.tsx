import { useId, useState } from 'react';
import type { SessionAnswer } from '../../catalogue/studio-contract';
import { Alert, Button, buttonClass } from '../../src/ui';
import { signOut } from '../api';
import { st } from '../studio-i18n';

/**
 * The studio's sign-in: studio people sign in on the product's sign-in page (its limits, its second
 * factor), which brings them back here. A signed-in account the studio does not admit (no studio role;
 * in production, no second factor) is told why, and may sign in as someone else.
 */
export function SignIn({ session }: { session: SessionAnswer }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const { refused } = session;
  const switchAccount = async () => {
    setBusy(true);
    // Whatever the answer, the sign-in page is where this leads.
    await signOut().catch(() => undefined);
    window.location.assign(session.signIn);
  };
  return (
    <main className="studio-sign-in fd-page">
      <section className="fd-screen fd-screen--card" aria-labelledby={`${id}-h`}>
        <h1 id={`${id}-h`} className="fd-screen__title">
          {st('session.title')}
        </h1>
        <p>{st('session.intro')}</p>
        {refused ? (
          <Alert kind="warning" role="alert">
            {st(`session.refused.${refused.reason}`, { email: refused.email })}
          </Alert>
        ) : null}
        <p>{st('session.how')}</p>
        {session.demo ? <Alert kind="info">{st('session.demo')}</Alert> : null}
        {refused ? (
          <Button variant="primary" block busy={busy} onClick={() => void switchAccount()}>
            {st('session.signInAgain')}
          </Button>
        ) : (
          <a className={buttonClass('primary', true)} href={session.signIn}>
            {st('session.signIn')}
          </a>
        )}
      </section>
    </main>
  );
}
