import { useCallback, useState } from 'react';
import type { ActionAnswer, ChangeDetail, Person } from '../catalogue/studio-contract';
import { DEFAULT_LANGUAGE } from '../src/app/studio-entry';
import { Alert, Button } from '../src/ui';
import { ChangesView } from './review/ChangesView';
import { HistoryView } from './review/HistoryView';
import { SignIn } from './session/SignIn';
import { useSession } from './session/useSession';
import { useCatalogue } from './state/useCatalogue';
import { usePublish } from './state/usePublish';
import { PublishNote } from './StatusPanel';
import { Studio } from './Studio';
import { st } from './studio-i18n';

type View = 'edit' | 'changes' | 'history';
const VIEWS: View[] = ['edit', 'changes', 'history'];

/** The studio for a person: signed in, then its three views — the editor, the changes under review, the history. */
export function StudioApp() {
  const { session, error, signOut } = useSession();
  if (error) return <Alert kind="error">{st('studio.loadFailed', { reason: error })}</Alert>;
  if (!session) return <p role="status">{st('studio.loading')}</p>;
  if (!session.person) return <SignIn session={session} />;
  return <Workspace person={session.person} passwordOnly={session.secondFactor === false} onSignOut={() => void signOut()} />;
}

function Workspace({ person, passwordOnly, onSignOut }: { person: Person; passwordOnly: boolean; onSignOut(): void }) {
  const { catalogue, loadError, reload } = useCatalogue();
  const { publish, setPublish } = usePublish();
  const [view, setView] = useState<View>('edit');
  const [selected, setSelected] = useState<number>();
  const [opening, setOpening] = useState<ChangeDetail>();

  const textOf = useCallback(
    (key: string): string | undefined => {
      const [file = '', ...path] = key.split('.');
      const text = catalogue?.locales[`${DEFAULT_LANGUAGE}/${file}.json`];
      try {
        const value = path.reduce<unknown>(
          (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
          JSON.parse(text ?? '{}'),
        );
        return typeof value === 'string' ? value : undefined;
      } catch {
        return undefined;
      }
    },
    [catalogue],
  );
  /** A publish or rollback: the files are a new version; the app is being rebuilt. */
  const published = (answer: ActionAnswer) => {
    setPublish(answer.publish);
    reload();
  };

  return (
    <div className="studio-shell">
      <ShellBar person={person} passwordOnly={passwordOnly} view={view} onView={setView} onSignOut={onSignOut} />
      <PublishNote publish={publish} route={undefined} />
      {loadError ? <Alert kind="error">{st('studio.loadFailed', { reason: loadError })}</Alert> : null}
      {!catalogue ? <p role="status">{st('studio.loading')}</p> : null}
      <main className="studio-shell__main">
        {/* The editor stays mounted while another view shows: its edits and draft are kept. */}
        {catalogue ? (
          <div hidden={view !== 'edit'} className="studio-shell__editor">
            <Studio
              catalogue={catalogue}
              opening={opening}
              onReviewRequested={(id) => {
                setSelected(id);
                setView('changes');
              }}
            />
          </div>
        ) : null}
        {view === 'changes' ? (
          <ChangesView
            person={person}
            selected={selected}
            onSelect={setSelected}
            textOf={textOf}
            onEdit={(change) => {
              setOpening(change);
              setView('edit');
            }}
            onPublished={published}
          />
        ) : null}
        {view === 'history' ? <HistoryView textOf={textOf} canRollBack={person.role === 'approver'} onRolledBack={published} /> : null}
      </main>
    </div>
  );
}

interface ShellBarProps {
  person: Person;
  passwordOnly: boolean;
  view: View;
  onView(view: View): void;
  onSignOut(): void;
}

/** The studio's top bar: its title, the three views, who is signed in, and sign-out. */
function ShellBar({ person, passwordOnly, view, onView, onSignOut }: ShellBarProps) {
  return (
    <header className="studio-shell__bar">
      <h1>{st('studio.title')}</h1>
      <nav aria-label={st('views.label')} className="studio-shell__views">
        {VIEWS.map((name) => (
          <button key={name} type="button" className="studio-shell__view" aria-current={view === name ? 'page' : undefined} onClick={() => onView(name)}>
            {st(`views.${name}`)}
          </button>
        ))}
      </nav>
      <p className="studio-shell__person">
        {st('session.as', { email: person.email, role: st(`session.roles.${person.role}`) })}
        {/* Demo mode admits the demo's people with a password alone: say so where they look. */}
        {passwordOnly ? <span className="studio-shell__password-only">{st('session.passwordOnly')}</span> : null}
      </p>
      <Button variant="secondary" className="studio-shell__sign-out" onClick={onSignOut}>
        {st('session.signOut')}
      </Button>
    </header>
  );
}
