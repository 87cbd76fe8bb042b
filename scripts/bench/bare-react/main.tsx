import { useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * The yardstick of `npm run bench`: React 19 and one controlled sign-in form, nothing else (no router,
 * no i18n, no form library, no validation). Built and served the same way as the app, in the same session.
 */
function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(true);
  };
  return (
    <main>
      <h1>Sign in</h1>
      <form onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <button type="submit">Sign in</button>
        {sent ? <p role="status">Sent</p> : null}
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<SignIn />);
