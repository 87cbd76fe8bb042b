import type { ExperimentSummary } from '../../catalogue/studio-contract';
import { Field } from '../Field';
import { st } from '../studio-i18n';

/**
 * The target of an experiment or a rollout (issue 38): branded host names and languages, typed
 * comma-separated (empty: every site, every language); the server refuses an unknown one by name.
 */
export interface TargetText {
  hosts: string;
  languages: string;
}

/** A comma-separated list as typed, without blanks. */
export const listOf = (typed: string): string[] =>
  typed
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** Who an experiment or rollout runs for, in words. */
export const targetWords = (e: Pick<ExperimentSummary, 'hosts' | 'languages'>): string =>
  e.hosts.length + e.languages.length === 0 ? st('target.everyone') : [...e.hosts, ...e.languages].join(', ');

/** The two fields of a target; `id` prefixes their ids. */
export function TargetFields({ id, value, onChange }: { id: string; value: TargetText; onChange(value: TargetText): void }) {
  return (
    <>
      <Field id={`${id}-hosts`} label={st('target.hosts')} help={st('target.hostsHelp')}>
        <input
          id={`${id}-hosts`}
          className="fd-input"
          aria-describedby={`${id}-hosts-help`}
          value={value.hosts}
          onChange={(e) => onChange({ ...value, hosts: e.target.value })}
        />
      </Field>
      <Field id={`${id}-languages`} label={st('target.languages')} help={st('target.languagesHelp')}>
        <input
          id={`${id}-languages`}
          className="fd-input"
          aria-describedby={`${id}-languages-help`}
          value={value.languages}
          onChange={(e) => onChange({ ...value, languages: e.target.value })}
        />
      </Field>
    </>
  );
}
