import { useEffect, useState } from 'react';
import type { CheckedEdit } from '../../catalogue/studio-contract';
import { NO_SHARED_OUTCOMES } from '../../catalogue/language/outcome-lookup';
import { DEFAULT_THEME } from '../../src/app/studio-entry';
import { encodeState } from '../../src/engine';
import { whenIdle } from '../../src/lib/idle';
import { Preview, sampleUrl } from '../Preview';
import { st } from '../studio-i18n';

/**
 * The studio page in picture mode (/dev/studio/?picture=1&source=…&side=…&screen=…&step=…&lang=…):
 * one side of a change, one screen state, rendered by the real engine as the preview renders it, and
 * nothing else. The server's picture taker (scripts/studio-pictures.ts) opens it at a width and colour
 * scheme and takes the picture once the page says it is ready (html[data-picture-ready]), or reports why
 * not (html[data-picture-failed]). A step the side does not have is pictured as a note that says so.
 */
const FLAGS = { branded: false, production: false, selfRegistrationEnabled: true };

function ready() {
  // After the fonts, the page's idle time and two frames: what the picture shows has been laid out and
  // painted, the parts a step draws only once the page is idle (the passkey sign-in: src/engine/lazy-part.tsx)
  // included, so both sides of a change show them (the taker then waits for their chunks: tooling/pictures-child.ts).
  void document.fonts.ready.then(() =>
    whenIdle(() => requestAnimationFrame(() => requestAnimationFrame(() => document.documentElement.setAttribute('data-picture-ready', 'yes')))),
  );
}

export function PicturePage() {
  const query = new URLSearchParams(window.location.search);
  const [view, setView] = useState<CheckedEdit>();
  const [failed, setFailed] = useState<string>();
  const step = query.get('step') ?? '';
  const lang = query.get('lang') ?? '';
  useEffect(() => {
    const ask = new URLSearchParams(['source', 'side', 'screen', 'step', 'lang', 'ticket'].map((name) => [name, query.get(name) ?? '']));
    fetch(`/dev/studio/api/picture-view?${ask.toString()}`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        setView((await response.json()) as CheckedEdit);
      })
      .catch((error: unknown) => setFailed(String(error)));
    // The query does not change while the page lives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const screen = view?.screen;
  const missing = (view && !screen) || (screen && !(step in screen.steps));
  useEffect(() => {
    // A side that cannot be shown is no picture: the taker reports the reason instead.
    if (failed) document.documentElement.setAttribute('data-picture-failed', failed);
    else if (missing || screen) ready();
  }, [failed, missing, screen]);

  if (failed || missing)
    return (
      <main className="studio-picture studio-picture--missing">
        <p>{failed ? st('pictures.viewFailed', { reason: failed }) : st('pictures.noStep', { step })}</p>
      </main>
    );
  if (!screen || !view) return null;
  document.documentElement.lang = lang;
  return (
    <div className="studio-picture">
      <Preview
        screen={screen}
        step={step}
        locales={view.locales}
        lang={lang}
        theme={DEFAULT_THEME}
        flags={FLAGS}
        url={sampleUrl(screen, encodeState)}
        routes={view.routes}
        outcomes={view.outcomes ?? NO_SHARED_OUTCOMES}
        onApi={() => undefined}
        onRenderError={() => undefined}
      />
    </div>
  );
}
