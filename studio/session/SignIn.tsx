import { useId, useState, type FormEvent } from 'react';
import type { Person } from '../../catalogue/studio-contract';
import { Button } from '../../src/ui';
import { ApiError, signIn } from '../api';
import { Field } from '../Field';
import { Outcome } from '../Outcome';
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
  const credentials = [
    { name: 'email', autoComplete: 'username', value: email, set: setEmail },
    { name: 'password', autoComplete: 'current-password', value: password, set: setPassword },
  ] as const;
  return (
    <main className="studio-sign-in fd-page">
      <section className="fd-screen fd-screen--card" aria-labelledby={`${id}-h`}>
        <h1 id={`${id}-h`} className="fd-screen__title">
          {st('session.title')}
        </h1>
        <p>{st('session.intro')}</p>
        <form onSubmit={(e) => void submit(e)} noValidate className="studio-sign-in__form">
          {credentials.map((field) => (
            <Field key={field.name} id={`${id}-${field.name}`} label={st(`session.${field.name}`)}>
              <input
                id={`${id}-${field.name}`}
                className="fd-input"
                type={field.name}
                autoComplete={field.autoComplete}
                value={field.value}
                onChange={(e) => field.set(e.target.value)}
                required
              />
            </Field>
          ))}
          <Outcome error={error} />
          <Button type="submit" variant="primary" block busy={busy}>
            {st('session.signIn')}
          </Button>
        </form>
      </section>
    </main>
  );
}
