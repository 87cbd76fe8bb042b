import type { PendingTranslation } from '../catalogue/check/pending';
import { formatProblem, type Problem } from '../catalogue/check/types';
import type { PublishStatus } from '../catalogue/studio-contract';
import { Alert } from '../src/ui';
import { st } from './studio-i18n';
import { PendingList } from './TextTable';

/** The check's problems (or that there are none), then the pending translations. */
export function ProblemList(props: { checking: boolean; checked: boolean; problems: Problem[]; pending: PendingTranslation[]; onOpen(key: string): void }) {
  const { problems, pending } = props;
  return (
    <>
      <div data-testid="studio-problems">
        {props.checking && !props.checked ? <p>{st('studio.checking')}</p> : null}
        {props.checked && problems.length === 0 ? (
          <p className="studio__clean">{pending.length > 0 ? st('studio.cleanPending', { count: pending.length }) : st('studio.clean')}</p>
        ) : null}
        {problems.length > 0 ? (
          <>
            <h2>{st('studio.problems', { count: problems.length })}</h2>
            <ul className="studio__problems">
              {problems.map((p, i) => (
                <li key={i}>{formatProblem(p)}</li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
      <PendingList pending={pending} onOpen={props.onOpen} />
    </>
  );
}

const PUBLISH_KINDS = { running: 'info', done: 'success', failed: 'error', off: 'warning' } as const;

/** Where the published catalogue stands in the running app: being rebuilt, live (with a link), or what to run. */
export function PublishNote({ publish, route }: { publish: PublishStatus | undefined; route: string | undefined }) {
  if (!publish || publish.state === 'idle') return null;
  return (
    <div className="studio__publish" role="status" data-testid="studio-publish">
      <Alert kind={PUBLISH_KINDS[publish.state]}>
        {publish.state === 'running' ? <p>{st('publish.running')}</p> : null}
        {publish.state === 'done' ? (
          <p>
            {st('publish.done')}{' '}
            {route ? (
              <a href={route} target="_blank" rel="noreferrer">
                {st('publish.open', { route })}
              </a>
            ) : null}
          </p>
        ) : null}
        {publish.state === 'failed' ? (
          <>
            <p>{st('publish.failed', { command: publish.command })}</p>
            {publish.output ? <pre className="studio__plan">{publish.output}</pre> : null}
          </>
        ) : null}
        {publish.state === 'off' ? <p>{st('publish.off', { command: publish.command })}</p> : null}
      </Alert>
    </div>
  );
}
