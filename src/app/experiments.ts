/**
 * The experiments this browser is in (issue 38): GET /ws/experiments names, per running experiment,
 * each text key it varies (a rollout varies several) and this variant's text per language; the page's
 * texts then show them for those keys (the catalogue's text where the variant has none for the
 * language). The page's language goes with the call: an experiment may be limited to some languages. Loaded with the funnel's sender,
 * when the browser is idle: an experiment varies a later screen's text (the demo's: the passkey offer),
 * never the first form's. The server assigns the same variant again to count the events.
 */
import { callOperation } from '../api/client';
import { currentTexts, setTexts } from '../lib/i18n';

export async function loadExperimentTexts(): Promise<void> {
  const result = await callOperation('experimentAssignments', { lang: currentTexts().language || undefined });
  if (!result.ok || !result.data) return;
  const texts = currentTexts();
  const varied = new Map<string, string>();
  for (const assignment of result.data.assignments ?? []) {
    const text = assignment.texts[texts.language];
    if (text !== undefined) varied.set(assignment.textKey, text);
  }
  if (varied.size === 0) return;
  const { t } = texts;
  setTexts({ ...texts, t: (key, values) => varied.get(key) ?? t(key, values) });
}
