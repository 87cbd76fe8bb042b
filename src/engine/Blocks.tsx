import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { Alert, Button, buttonClass, Spinner, STATUS_ICONS, type ButtonVariant } from '../ui';
import type { Block, CallSpec, CardLine, Outcome, TextRef } from './types';
import type { ScreenApi } from './runtime-api';
import { holds } from '../../catalogue/language/conditions';
import { useEngineHost, type EngineHost } from './host';
import { resolveSource, resolveText, type Scope } from '../../catalogue/language/scope';
import { looksLikeEmail } from '../../catalogue/language/patterns';

export interface BlocksProps {
  blocks: Block[] | undefined;
  scope: Scope;
  api: ScreenApi;
  busy: boolean;
  onCall(call: CallSpec): void;
  onOutcome(outcome: Outcome): void;
}

/** A button's look (and a link's that leads on like a button); other variants are texts'. */
const BUTTON_VARIANTS: readonly string[] = ['primary', 'secondary', 'tertiary', 'link'] satisfies ButtonVariant[];
const buttonVariant = (variant: Block['variant']): ButtonVariant | undefined =>
  variant && BUTTON_VARIANTS.includes(variant) ? (variant as ButtonVariant) : undefined;

/** What rendering a block needs of the screen: its texts resolved and translated, the host (links, content), the scope. */
interface BlockParts {
  text(ref: TextRef | undefined): string;
  host: EngineHost;
  scope: Scope;
}

/** A card's line: a text, or a text that is a mailto: link when its address is a plausible email (the value comes from the server or history state). */
function cardLine(entry: CardLine, index: number, { text, scope }: BlockParts) {
  if (typeof entry === 'string' || !('text' in entry))
    return (
      <p key={index} className="fd-card__line">
        {text(entry)}
      </p>
    );
  const address = resolveSource(entry.email, scope);
  return (
    <p key={index} className="fd-card__line">
      {looksLikeEmail(address) ? <a href={`mailto:${address}`}>{text(entry.text)}</a> : text(entry.text)}
    </p>
  );
}

/**
 * A block that only shows something: a heading, a text (a warning, e.g. why a button is disabled, is
 * announced when it appears, a status politely), the progress note, a link (to a route, or to a URL the
 * host accepts; one that is the page's way on may look like a button), a card.
 */
function shownBlock(block: Block, key: string, className: string, parts: BlockParts) {
  const { text, host, scope } = parts;
  switch (block.type) {
    case 'heading':
      return (
        <h2 key={key} className={className}>
          {text(block.text)}
        </h2>
      );
    case 'spinner':
      return (
        <p key={key} className={className} role="status">
          <Spinner />
          {text(block.text)}
        </p>
      );
    case 'text':
      return block.variant === 'warning' ? (
        <Alert key={key} kind="warning" role="alert" className={className}>
          {text(block.text)}
        </Alert>
      ) : (
        <p key={key} className={className} role={block.variant === 'status' ? 'status' : undefined}>
          {text(block.text)}
        </p>
      );
    case 'link': {
      const look = buttonVariant(block.variant);
      const linkClass = look ? buttonClass(look, look === 'primary' || look === 'secondary') : undefined;
      const href = block.to || block.href === undefined ? undefined : host.checkUrl(resolveSource(block.href, scope));
      if (!block.to && !href) return null;
      return (
        <p key={key} className={className}>
          {block.to ? (
            <host.Link to={block.to} className={linkClass}>
              {text(block.text)}
            </host.Link>
          ) : (
            <a href={href} className={linkClass} {...(block.newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
              {text(block.text)}
            </a>
          )}
        </p>
      );
    }
    case 'card': {
      const CardIcon = block.icon ? STATUS_ICONS[block.icon] : undefined;
      return (
        <section key={key} className={`${className} fd-card`} aria-label={text(block.title)}>
          {CardIcon ? (
            <span className="fd-icon-tile fd-card__icon">
              <CardIcon />
            </span>
          ) : null}
          <div className="fd-card__body">
            {block.title ? <h2 className="fd-card__title">{text(block.title)}</h2> : null}
            {(block.lines ?? []).map((entry, index) => cardLine(entry, index, parts))}
          </div>
        </section>
      );
    }
  }
}

/**
 * The step's buttons: a click runs the button's call or outcome (after its debounce, e.g. 'Resend
 * code'), none while the step is busy or the button disabled. The button whose call the step is busy
 * with shows the spinner; the others only refuse clicks.
 */
function useButtons({ busy, onCall, onOutcome }: Pick<BlocksProps, 'busy' | 'onCall' | 'onOutcome'>) {
  const debounced = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const [pressed, setPressed] = useState<string>();
  useEffect(() => {
    const timers = debounced.current;
    return () => timers.forEach(clearTimeout);
  }, []);
  const press = (key: string, block: Block, disabled: boolean) => {
    if (busy || disabled) return;
    setPressed(key);
    const run = () => {
      debounced.current.delete(key);
      if (block.call) onCall(block.call);
      else if (block.outcome) onOutcome(block.outcome);
    };
    if (!block.debounceMs) return run();
    clearTimeout(debounced.current.get(key));
    debounced.current.set(key, setTimeout(run, block.debounceMs));
  };
  return { pressed, press };
}

/** Content around a form: headings, texts, links, buttons, cards, a progress note. */
export function Blocks({ blocks, scope, api, busy, onCall, onOutcome }: BlocksProps) {
  const { t } = useTranslation();
  const host = useEngineHost();
  const { pressed, press } = useButtons({ busy, onCall, onOutcome });
  const text = (ref: TextRef | undefined) => {
    if (!ref) return '';
    const { key, values } = resolveText(ref, scope);
    return t(key, values);
  };
  const parts: BlockParts = { text, host, scope };
  const visible = (blocks ?? []).filter((block) => holds(block.when, scope));
  if (visible.length === 0) return null;
  return (
    <div className="fd-blocks">
      {visible.map((block, index) => {
        const key = `${block.type}-${index}`;
        const className = `fd-block fd-block--${block.type}${block.variant ? ` fd-block--${block.variant}` : ''}`;
        switch (block.type) {
          case 'button': {
            const disabled = block.disabledWhen !== undefined && holds(block.disabledWhen, scope);
            return (
              <Button
                key={key}
                variant={buttonVariant(block.variant) ?? 'secondary'}
                busy={busy && pressed === key}
                aria-disabled={busy || undefined}
                disabled={disabled}
                onClick={() => press(key, block, disabled)}
              >
                {text(block.text)}
              </Button>
            );
          }
          case 'component': {
            const Component = host.content(block.name ?? '');
            if (!Component) throw new Error(`Unknown content component "${block.name ?? ''}"`);
            return (
              <div key={key} className={className}>
                <Component {...api} />
              </div>
            );
          }
          default:
            return shownBlock(block, key, className, parts);
        }
      })}
    </div>
  );
}
