import { createContext, useContext, type ComponentPropsWithoutRef, type ReactNode, type Ref } from 'react';
import { BRAND_MARK } from './brand-mark';
import { STATUS_ICONS, type StatusIconName } from './icons';

/**
 * The card every screen sits in: the brand at the top (the site's logo or the product mark, given
 * by the page frame through CardBrand), an optional status icon (success and confirmation pages),
 * the one h1 of the page, then the screen's content. server/spa/shell.ts writes the same markup
 * for the first paint, so nothing moves when the app takes over.
 */
export const CardBrand = createContext<ReactNode>(null);
/** The heading's level and id: an h1 on a page; inside a dialog an h2 whose id names the dialog. */
export const CardHeading = createContext<{ level: 1 | 2; id?: string }>({ level: 1 });

export interface CardProps extends Omit<ComponentPropsWithoutRef<'section'>, 'title'> {
  heading: ReactNode;
  /** A status icon above the heading (e.g. 'success' on a confirmation). */
  icon?: StatusIconName;
  layout?: 'card' | 'wide';
  /** The card's section (the engine moves focus to its heading when the step changes). */
  ref?: Ref<HTMLElement>;
}

export function Card({ heading, icon, layout = 'card', className, children, ref, ...section }: CardProps) {
  const brand = useContext(CardBrand);
  const { level, id } = useContext(CardHeading);
  const Heading = level === 1 ? 'h1' : 'h2';
  const StatusIcon = icon ? STATUS_ICONS[icon] : undefined;
  return (
    <section {...section} ref={ref} className={`fd-screen fd-screen--${layout}${className ? ` ${className}` : ''}`}>
      {brand}
      {StatusIcon ? (
        <span className={`fd-status-icon fd-status-icon--${icon}`}>
          <StatusIcon size={28} />
        </span>
      ) : null}
      <Heading id={id} className="fd-screen__title">
        {heading}
      </Heading>
      {children}
    </section>
  );
}

/** The product's own mark and name, for a site without a logo of its own. */
export function ProductMark({ name }: { name: string }) {
  const { viewBox, size, radius, path } = BRAND_MARK;
  return (
    <>
      <svg className="fd-brand__mark" viewBox={viewBox} width={size} height={size} aria-hidden="true" focusable="false">
        <rect className="fd-brand__tile" width="32" height="32" rx={radius} />
        <path className="fd-brand__letter" d={path} />
      </svg>
      <span className="fd-brand__name">{name}</span>
    </>
  );
}
