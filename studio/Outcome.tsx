import { Alert } from '../src/ui';

/** What the last action did, announced: its error as an alert, its success as a status; nothing when neither. */
export function Outcome({ error, done }: { error?: string; done?: string }) {
  return (
    <>
      {error ? (
        <Alert kind="error" role="alert">
          {error}
        </Alert>
      ) : null}
      {done ? (
        <Alert kind="success" role="status">
          {done}
        </Alert>
      ) : null}
    </>
  );
}
