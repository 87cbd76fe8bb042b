import { useId, useState, type FormEvent } from 'react';
import type { Person } from '../../catalogue/studio-contract';
import { Alert, Button } from '../../src/ui';
import { ApiError, signIn } from '../api';
import { st } from '../studio-i18n';

/** The studio's sign-in: an account of the tenant with a studio role (editor or approver). */
export function SignIn({ onSignedIn }: { onSignedIn(person: Person): void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn((await signIn(email, password)).person);
    } catch (e) {
      setError(e instanceof ApiError && e.code === 'RATE_LIMITED' ? st('session.locked') : st('session.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="studio-sign-in fd-page">
      <section className="fd-screen fd-screen--card" aria-labelledby={`${id}-h`}>
        <h1 id={`${id}-h`} className="fd-screen__title">
          {st('session.title')}
        </h1>
        <p>{st('session.intro')}</p>
        <form onSubmit={(e) => void submit(e)} noValidate className="studio-sign-in__form">
          <div className="fd-field">
            <label className="fd-field__label" htmlFor={`${id}-email`}>
              {st('session.email')}
            </label>
            <input
              id={`${id}-email`}
              className="fd-input"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          </div>
          <div className="fd-field">
            <label className="fd-field__label" htmlFor={`${id}-password`}>
              {st('session.password')}
            </label>
            <input
              id={`${id}-password`}
              className="fd-input"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          </div>
          {error ? (
            <Alert kind="error" role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" variant="primary" block busy={busy}>
            {st('session.signIn')}
          </Button>
        </form>
      </section>
    </main>
  );
}
