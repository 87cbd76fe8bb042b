import { THEMES } from '../src/app/themes';
import type { PreviewFlags } from './Preview';
import { Control } from './recipes/Control';
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

/** What the studio shows: the screen and step, and the preview's language, theme, brand, environment and URL. */
export function TopBar(props: TopBarProps) {
  const { flags, onFlags } = props;
  return (
    <div className="studio__bar">
      <h1>{st('studio.title')}</h1>
      <Control label={st('studio.screen')}>
        <select value={props.screenId} onChange={(e) => props.onScreen(e.target.value)} data-testid="studio-screen">
          {props.screens.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </Control>
      <Control label={st('studio.step')}>
        <select value={props.step ?? ''} onChange={(e) => props.onStep(e.target.value)} data-testid="studio-step">
          {props.steps.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </Control>
      <Control label={st('studio.language')}>
        <select value={props.lang} onChange={(e) => props.onLang(e.target.value)} data-testid="studio-language">
          {props.languages.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </Control>
      <Control label={st('studio.theme')}>
        <select value={props.theme} onChange={(e) => props.onTheme(e.target.value)} data-testid="studio-theme">
          {THEMES.map((th) => (
            <option key={th} value={th}>
              {th}
            </option>
          ))}
        </select>
      </Control>
      <Control label={st('studio.brand')}>
        <select
          value={flags.branded ? 'branded' : 'default'}
          onChange={(e) => onFlags((f) => ({ ...f, branded: e.target.value === 'branded' }))}
          data-testid="studio-brand"
        >
          <option value="default">{st('studio.brandDefault')}</option>
          <option value="branded">{st('studio.brandBranded')}</option>
        </select>
      </Control>
      <Control label={st('studio.environment')}>
        <select
          value={flags.production ? 'production' : 'development'}
          onChange={(e) => onFlags((f) => ({ ...f, production: e.target.value === 'production' }))}
          data-testid="studio-environment"
        >
          <option value="development">{st('studio.envDevelopment')}</option>
          <option value="production">{st('studio.envProduction')}</option>
        </select>
      </Control>
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
  );
}
