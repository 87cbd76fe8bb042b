import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Block, CallSpec, Outcome, TextRef } from './types';
import type { ScreenApi } from './runtime-api';
import { holds } from './conditions';
import { useEngineHost } from './host';
import { resolveSource, resolveText, type Scope } from './scope';

export interface BlocksProps {
  blocks: Block[] | undefined;
  scope: Scope;
  api: ScreenApi;
  busy: boolean;
  onCall(call: CallSpec): void;
  onOutcome(outcome: Outcome): void;
}

/** Content around a form: headings, texts, links, buttons, cards, a progress note. */
export function Blocks({ blocks, scope, api, busy, onCall, onOutcome }: BlocksProps) {
  const { t } = useTranslation();
  const host = useEngineHost();
  const debounced = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const timers = debounced.current;
    return () => timers.forEach(clearTimeout);
  }, []);
  const text = (ref: TextRef | undefined) => {
    if (!ref) return '';
    const { key, values } = resolveText(ref, scope);
    return t(key, values);
  };
  const visible = (blocks ?? []).filter((block) => holds(block.when, scope));
  if (visible.length === 0) return null;
  return (
    <div className="fd-blocks">
      {visible.map((block, index) => {
        const key = `${block.type}-${index}`;
        const className = `fd-block fd-block--${block.type}${block.variant ? ` fd-block--${block.variant}` : ''}`;
        switch (block.type) {
          case 'heading':
            return <h2 key={key} className={className}>{text(block.text)}</h2>;
          case 'text':
            // A warning (e.g. why a button is disabled) is announced when it appears, a status politely.
            return <p key={key} className={className} role={block.variant === 'warning' ? 'alert' : block.variant === 'status' ? 'status' : undefined}>{text(block.text)}</p>;
          case 'spinner':
            return (
              <p key={key} className={className} role="status">
                <span className="fd-spinner" aria-hidden="true" />
                {text(block.text)}
              </p>
            );
          case 'link': {
            if (block.to) return <p key={key} className={className}><host.Link to={block.to}>{text(block.text)}</host.Link></p>;
            const href = block.href !== undefined ? host.checkUrl(resolveSource(block.href, scope)) : undefined;
            if (!href) return null;
            return (
              <p key={key} className={className}>
                <a href={href} {...(block.newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>{text(block.text)}</a>
              </p>
            );
          }
          case 'button':
            return (
              <button
                key={key}
                type="button"
                className={`fd-button fd-button--${block.variant ?? 'secondary'}`}
                aria-disabled={busy || undefined}
                disabled={block.disabledWhen !== undefined && holds(block.disabledWhen, scope)}
                onClick={() => {
                  if (busy || (block.disabledWhen !== undefined && holds(block.disabledWhen, scope))) return;
                  const run = () => {
                    debounced.current.delete(key);
                    if (block.call) onCall(block.call);
                    else if (block.outcome) onOutcome(block.outcome);
                  };
                  if (!block.debounceMs) return run();
                  clearTimeout(debounced.current.get(key));
                  debounced.current.set(key, setTimeout(run, block.debounceMs));
                }}
              >
                {text(block.text)}
              </button>
            );
          case 'component': {
            const Component = host.content(block.name ?? '');
            if (!Component) throw new Error(`Unknown content component "${block.name ?? ''}"`);
            return <div key={key} className={className}><Component {...api} /></div>;
          }
          case 'card':
            return (
              <section key={key} className={`${className} fd-card`} aria-label={text(block.title)}>
                {block.title ? <h2 className="fd-card__title">{text(block.title)}</h2> : null}
                {(block.lines ?? []).map((line, i) => <p key={i} className="fd-card__line">{text(line)}</p>)}
              </section>
            );
        }
      })}
    </div>
  );
}
