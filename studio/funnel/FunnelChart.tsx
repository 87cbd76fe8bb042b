import type { FunnelVariant } from '../../catalogue/studio-contract';
import { st } from '../studio-i18n';

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
const seconds = (ms: number | null) => (ms === null ? st('funnel.none') : st('funnel.seconds', { seconds: (ms / 1000).toFixed(1) }));
export const variantName = (variant: string) => (variant === '-' ? st('funnel.noVariant') : st('funnel.variant', { variant }));

/**
 * One variant's funnel: a bar per step (shown, and submitted inside it), an SVG hidden from assistive
 * technology, which reads the table beside it with the same numbers.
 */
export function FunnelChart({ data }: { data: FunnelVariant }) {
  const most = Math.max(1, ...data.steps.map((s) => s.shown));
  const name = variantName(data.variant);
  return (
    <section className="studio-funnel__variant" aria-label={name}>
      <h3>{name}</h3>
      <p>
        {st('funnel.visitors', { count: data.visitors })} · {st('funnel.completed', { count: data.completed, percent: percent(data.completed, data.visitors) })}
      </p>
      <svg className="studio-funnel__bars" viewBox={`0 0 100 ${data.steps.length * 12}`} aria-hidden="true" focusable="false">
        {data.steps.map((s, i) => (
          <g key={s.step}>
            <rect className="studio-funnel__bar" x="0" y={i * 12} height="10" width={percent(s.shown, most)} />
            <rect className="studio-funnel__bar-done" x="0" y={i * 12} height="10" width={percent(s.submitted, most)} />
            <text className="studio-funnel__bar-label" x="1" y={i * 12 + 7}>
              {s.step}
            </text>
          </g>
        ))}
      </svg>
      <StepTable data={data} />
      <TopLists data={data} />
    </section>
  );
}

function StepTable({ data }: { data: FunnelVariant }) {
  return (
    <table className="studio-funnel__table">
      <caption>{st('funnel.tableCaption', { variant: variantName(data.variant) })}</caption>
      <thead>
        <tr>
          <th scope="col">{st('funnel.step')}</th>
          <th scope="col">{st('funnel.shown')}</th>
          <th scope="col">{st('funnel.submitted')}</th>
          <th scope="col">{st('funnel.dropOff')}</th>
          <th scope="col">{st('funnel.left')}</th>
          <th scope="col">{st('funnel.median')}</th>
        </tr>
      </thead>
      <tbody>
        {data.steps.map((s) => (
          <tr key={s.step}>
            <th scope="row">{s.step}</th>
            <td>{s.shown}</td>
            <td>{s.submitted}</td>
            <td>{`${percent(s.shown - s.submitted, s.shown)} %`}</td>
            <td>{s.left}</td>
            <td>{seconds(s.medianMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TopLists({ data }: { data: FunnelVariant }) {
  return (
    <div className="studio-funnel__tops">
      <div>
        <h4>{st('funnel.fieldErrors')}</h4>
        {data.fieldErrors.length === 0 ? <p>{st('funnel.noneYet')}</p> : null}
        <ul>
          {data.fieldErrors.map((e) => (
            <li key={`${e.field} ${e.keyword}`}>{st('funnel.fieldError', { field: e.field, keyword: e.keyword, count: e.count })}</li>
          ))}
        </ul>
      </div>
      <div>
        <h4>{st('funnel.resultCodes')}</h4>
        {data.resultCodes.length === 0 ? <p>{st('funnel.noneYet')}</p> : null}
        <ul>
          {data.resultCodes.map((c) => (
            <li key={c.code}>{st('funnel.resultCode', { code: c.code, count: c.count })}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
