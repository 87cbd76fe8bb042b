import type { FunnelComparison } from '../../catalogue/studio-contract';
import { st } from '../studio-i18n';

const signed = (points: number | null) => (points === null ? '' : `${points > 0 ? '+' : ''}${points}`);

/** Two variants' completion rates compared, in plain words: who completes more and how sure, or "not enough visitors yet". */
export function Verdict({ comparison }: { comparison: FunnelComparison }) {
  const { first, second, difference, low, high, verdict } = comparison;
  const words = st(`funnel.verdict.${verdict}`, {
    first,
    second,
    difference: verdict === 'secondBetter' ? difference : signed(difference),
    low: signed(low),
    high: signed(high),
  });
  return (
    <section className="studio-funnel__verdict" aria-labelledby="studio-funnel-verdict">
      <h3 id="studio-funnel-verdict">{st('funnel.comparison')}</h3>
      <p role="status">{words}</p>
    </section>
  );
}
