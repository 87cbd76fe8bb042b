import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Translation } from '../lib/i18n';

/** SPEC §8: 'Failed to load the application' with Reload and Logout, instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('[frontdoor] render failure', error, info.componentStack);
    void import('../api/report').then((module) => module.reportError(error));
  }

  private logout = async () => {
    const { callOperation } = await import('../api/client');
    await callOperation('logout');
    window.location.assign('/login');
  };

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Translation>
        {(t) => (
          <div role="alert" className="fd-fatal">
            <p>{t('common.errors.appFailed')}</p>
            <button type="button" className="fd-button fd-button--primary" onClick={() => window.location.reload()}>
              {t('common.reload')}
            </button>
            <button type="button" className="fd-button fd-button--secondary" onClick={() => void this.logout()}>
              {t('common.logout')}
            </button>
          </div>
        )}
      </Translation>
    );
  }
}
