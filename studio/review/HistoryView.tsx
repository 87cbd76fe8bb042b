import { useCallback, useEffect, useId, useState } from 'react';
import type { ActionAnswer, Comparison, VersionSummary } from '../../catalogue/studio-contract';
import { Button } from '../../src/ui';
import { compareVersions, listVersions, rollBack } from '../api';
import { Choice } from '../recipes/Control';
import { Outcome } from '../Outcome';
import { st } from '../studio-i18n';
import { DiffList } from './DiffList';
import { Pictures } from './Pictures';
import { useAction } from './useAction';
import { when } from './words';

interface HistoryViewProps {
  textOf(key: string): string | undefined;
  /** An approver rolls back (server/routes/studio/api-versions.ts); an editor sees the history only. */
  canRollBack: boolean;
  /** A rollback happened: the catalogue is the new version, the app is being rebuilt. */
  onRolledBack(answer: ActionAnswer): void;
}

/** What a version is, in words: the first, a publish (its note), a rollback, or files changed outside the studio. */
function versionWords(v: VersionSummary): string {
  if (v.kind === 'publish') return v.note || st('history.kinds.publish');
  if (v.kind === 'rollback') return st('history.kinds.rollback', { version: v.restores }) + (v.note ? ` (${v.note})` : '');
  return st(`history.kinds.${v.kind}`);
}

interface VersionRowProps {
  version: VersionSummary;
  live: boolean;
  current: boolean;
  /** The rollback to this version is running. */
  busy: boolean;
  canRollBack: boolean;
  onShow(): void;
  onRollBack(): void;
}

function VersionRow({ version: v, live, current, busy, canRollBack, onShow, onRollBack }: VersionRowProps) {
  return (
    <tr data-version={v.number} aria-current={current || undefined}>
      <th scope="row">
        {v.number}
        {live ? <span className="studio-history__live"> {st('history.live')}</span> : null}
      </th>
      <td>
        {versionWords(v)}
        <span className="studio-history__files">{st('history.files', { count: v.files.length })}</span>
      </td>
      <td>
        {v.author ? st('history.by', { author: v.author }) : st('history.byFiles')}
        {v.approver ? ` · ${st('history.approvedBy', { approver: v.approver })}` : null}
      </td>
      <td>{when(v.createdAt)}</td>
      <td className="studio-history__buttons">
        <Button variant="tertiary" onClick={onShow}>
          {st('history.show', { version: v.number })}
        </Button>
        {canRollBack && !live ? (
          <Button variant="secondary" busy={busy} onClick={onRollBack}>
            {st('history.rollback', { version: v.number })}
          </Button>
        ) : null}
      </td>
    </tr>
  );
}

interface ComparisonProps {
  versions: VersionSummary[];
  current: number;
  base: number | undefined;
  comparison: Comparison | undefined;
  onBase(version: number | undefined): void;
  textOf(key: string): string | undefined;
}

/** What the shown version changed against another (its predecessor unless another is picked): the diff in words and the pictures. */
function VersionComparison({ versions, current, base, comparison, onBase, textOf }: ComparisonProps) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-h`} className="studio-history__compare" data-testid="studio-comparison">
      <h2 id={`${id}-h`}>{st('history.changedIn', { version: current })}</h2>
      <Choice
        label={st('history.compareWith')}
        value={base === undefined ? '' : String(base)}
        options={[
          ...(base === undefined ? [{ value: '', label: st('history.pickVersion') }] : []),
          ...versions.filter((v) => v.number !== current).map((v) => ({ value: String(v.number), label: st('history.versionOption', { version: v.number }) })),
        ]}
        onChange={(value) => onBase(value ? Number(value) : undefined)}
        testId="studio-compare-with"
      />
      {base === undefined ? <p>{st('history.first')}</p> : null}
      {base !== undefined && !comparison ? <p role="status">{st('history.comparing')}</p> : null}
      {comparison ? (
        <>
          <h3>{st('changes.what', { count: comparison.diff.length })}</h3>
          <DiffList diff={comparison.diff} textOf={textOf} />
          <h3>{st('changes.pictures')}</h3>
          <Pictures states={comparison.pictures} />
        </>
      ) : null}
    </section>
  );
}

/** The comparison of two versions, asked for again whenever either changes (an answer for an older pair is dropped). */
function useComparison(current: number | undefined, base: number | undefined, fail: (error: unknown) => void) {
  const [comparison, setComparison] = useState<Comparison>();
  useEffect(() => {
    setComparison(undefined);
    if (current === undefined || base === undefined) return;
    let mine = true;
    compareVersions(base, current).then(
      (answer) => mine && setComparison(answer),
      (e: unknown) => mine && fail(e),
    );
    return () => {
      mine = false;
    };
  }, [current, base, fail]);
  return comparison;
}

/** The versions of the catalogue: what each changed (compared with any other), and a rollback to any in one action. */
export function HistoryView({ textOf, canRollBack, onRolledBack }: HistoryViewProps) {
  const [versions, setVersions] = useState<VersionSummary[]>();
  const [live, setLive] = useState(0);
  const [shown, setShown] = useState<number>();
  const [against, setAgainst] = useState<number>();
  const { busy, error, done, run, fail } = useAction<number>();

  const refresh = useCallback(() => {
    listVersions().then((answer) => {
      setVersions(answer.versions);
      setLive(answer.live);
    }, fail);
  }, [fail]);
  useEffect(refresh, [refresh]);

  const current = shown ?? versions?.[0]?.number;
  const base = against ?? (current !== undefined && current > 1 ? current - 1 : undefined);
  const comparison = useComparison(current, base, fail);

  const rollback = (version: number) =>
    run(version, async () => {
      try {
        // It names the newest version shown: one published since would be undone unseen (HISTORY_MOVED).
        const answer = await rollBack(version, versions?.[0]?.number ?? 0);
        onRolledBack(answer);
        setShown(undefined);
        setAgainst(undefined);
        return st('history.rolledBack', { version, made: answer.version });
      } finally {
        refresh();
      }
    });

  return (
    <div className="studio-history" data-testid="studio-history">
      <Outcome error={error} done={done} />
      {/* A narrow screen scrolls the table, not the page (focusable, so a keyboard scrolls it too). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="studio-history__scroll" tabIndex={0} role="region" aria-label={st('history.caption')}>
        <table className="studio-history__table">
          <caption>{st('history.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{st('history.version')}</th>
              <th scope="col">{st('history.what')}</th>
              <th scope="col">{st('history.who')}</th>
              <th scope="col">{st('history.when')}</th>
              <th scope="col">{st('history.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {(versions ?? []).map((v) => (
              <VersionRow
                key={v.number}
                version={v}
                live={v.number === live}
                current={v.number === current}
                busy={busy === v.number}
                canRollBack={canRollBack}
                onShow={() => {
                  setShown(v.number);
                  setAgainst(undefined);
                }}
                onRollBack={() => void rollback(v.number)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {current !== undefined && versions ? (
        <VersionComparison versions={versions} current={current} base={base} comparison={comparison} onBase={setAgainst} textOf={textOf} />
      ) : null}
    </div>
  );
}
