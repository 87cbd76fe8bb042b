import { THEMES } from '../src/app/studio-entry';
import type { PreviewFlags } from './Preview';
import { Choice, Control } from './recipes/Control';
import { st } from './studio-i18n';

interface TopBarProps {
  screens: string[];
  screenId: string;
  onScreen(id: string): void;
  steps: string[];
  step: string | undefined;
  onStep(step: string): void;
  languages: string[];
  lang: string;
  onLang(lang: string): void;
  theme: string;
  onTheme(theme: string): void;
  flags: PreviewFlags;
  onFlags(change: (flags: PreviewFlags) => PreviewFlags): void;
  url: string;
  onUrl(url: string): void;
  /** The URL field was left: the preview opens it. */
  onUrlDone(): void;
}

/** What the editor shows: the screen and step, the preview's language and theme; brand, environment and address under More preview options. */
export function TopBar(props: TopBarProps) {
  const { flags, onFlags } = props;
  return (
    <div className="studio__bar">
      <Choice label={st('studio.screen')} value={props.screenId} options={props.screens} onChange={props.onScreen} testId="studio-screen" />
      <Choice label={st('studio.step')} value={props.step ?? ''} options={props.steps} onChange={props.onStep} testId="studio-step" />
      <Choice label={st('studio.language')} value={props.lang} options={props.languages} onChange={props.onLang} testId="studio-language" />
      <Choice label={st('studio.theme')} value={props.theme} options={THEMES} onChange={props.onTheme} testId="studio-theme" />
      <details className="studio__more">
        <summary>{st('studio.previewOptions')}</summary>
        <div className="studio__more-body">
          <Choice
            label={st('studio.brand')}
            value={flags.branded ? 'branded' : 'default'}
            options={[
              { value: 'default', label: st('studio.brandDefault') },
              { value: 'branded', label: st('studio.brandBranded') },
            ]}
            onChange={(value) => onFlags((f) => ({ ...f, branded: value === 'branded' }))}
            testId="studio-brand"
          />
          <Choice
            label={st('studio.environment')}
            value={flags.production ? 'production' : 'development'}
            options={[
              { value: 'development', label: st('studio.envDevelopment') },
              { value: 'production', label: st('studio.envProduction') },
            ]}
            onChange={(value) => onFlags((f) => ({ ...f, production: value === 'production' }))}
            testId="studio-environment"
          />
          <label className="studio__check">
            <input
              type="checkbox"
              checked={flags.selfRegistrationEnabled}
              onChange={(e) => onFlags((f) => ({ ...f, selfRegistrationEnabled: e.target.checked }))}
            />
            {st('studio.selfRegistration')}
          </label>
          <Control label={st('studio.url')}>
            <input type="text" value={props.url} size={28} onChange={(e) => props.onUrl(e.target.value)} onBlur={props.onUrlDone} data-testid="studio-url" />
          </Control>
        </div>
      </details>
    </div>
  );
}
