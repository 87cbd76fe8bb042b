import { useState } from 'react';
import type { Picture, PictureState } from '../../catalogue/studio-contract';
import { st } from '../studio-i18n';

/**
 * Before and after pictures of every screen state a change affects, at each width and colour scheme
 * (the server takes them with Chromium: server/routes/studio/pictures.ts). A picture shows a note
 * while it is being taken and says so when it could not be.
 */
function Shot({ picture, side, state }: { picture: Picture; side: 'before' | 'after'; state: PictureState }) {
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const alt = st('pictures.alt', {
    side: st(`pictures.${side}`),
    screen: state.screen,
    step: state.step,
    lang: state.lang,
    width: picture.width,
    scheme: st(`pictures.${picture.scheme}`),
  });
  return (
    <figure className="studio-pictures__shot" data-status={status}>
      <figcaption>{st(`pictures.${side}`)}</figcaption>
      {status === 'failed' ? (
        <p role="status">{st('pictures.failed')}</p>
      ) : (
        <img src={picture.url} alt={alt} onLoad={() => setStatus('ready')} onError={() => setStatus('failed')} />
      )}
      {status === 'loading' ? <p className="studio-pictures__note">{st('pictures.taking')}</p> : null}
    </figure>
  );
}

const stateWords = ({ screen, step, lang }: PictureState) => st('pictures.state', { screen, step, lang });

export function Pictures({ states }: { states: PictureState[] }) {
  if (states.length === 0) return <p>{st('pictures.none')}</p>;
  return (
    <div className="studio-pictures" data-testid="studio-pictures">
      {states.map((state) => (
        <section key={`${state.screen}/${state.step}/${state.lang}`} aria-label={stateWords(state)}>
          <h4>{stateWords(state)}</h4>
          {state.after.map((after, i) => {
            const before = state.before[i];
            return (
              <div key={`${after.width}-${after.scheme}`} className="studio-pictures__pair" data-width={after.width} data-scheme={after.scheme}>
                <p className="studio-pictures__size">{st('pictures.size', { width: after.width, scheme: st(`pictures.${after.scheme}`) })}</p>
                {before ? <Shot picture={before} side="before" state={state} /> : null}
                <Shot picture={after} side="after" state={state} />
              </div>
            );
          })}
        </section>
      ))}
    </div>
  );
}
