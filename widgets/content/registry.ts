import { createElement, lazy, Suspense, type ComponentType } from 'react';

/**
 * Content components a screen may place with a block { "type": "component", "name": ... }:
 * behaviour that is not a form field (e.g. panels of the signed-in landing page). Each loads
 * lazily; the catalogue check refuses names missing here.
 */
export interface ContentProps {
  /** The screen context (read-only), e.g. the signed-in user's email. */
  ctx: Readonly<Record<string, unknown>>;
}

type Loader = () => Promise<{ default: ComponentType<ContentProps> }>;

const loaders: Record<string, Loader> = {};

export const contentNames = Object.keys(loaders);

const cache = new Map<string, ComponentType<ContentProps>>();

/** The lazily loaded component, or undefined for an unknown name. */
export function contentComponent(name: string): ComponentType<ContentProps> | undefined {
  const load = loaders[name];
  if (!load) return undefined;
  let component = cache.get(name);
  if (!component) {
    const Lazy = lazy(load);
    component = (props: ContentProps) => createElement(Suspense, { fallback: null }, createElement(Lazy, props));
    cache.set(name, component);
  }
  return component;
}
