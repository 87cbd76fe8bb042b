/**
 * The product mark (also the tab's icon, in index.html): a rounded square in the theme's primary colour with
 * the door's 'F'. Written once here for the app (ProductMark in Card.tsx) and the server's static
 * page (server/spa/shell.ts), which must draw the same card before the scripts load.
 */
export const BRAND_MARK = {
  viewBox: '0 0 32 32',
  size: 32,
  radius: 8,
  path: 'M10.5 8h11v3.6h-7v3.2h6.2v3.6h-6.2V24h-4z',
} as const;

/** The mark as markup (decorative: the product name beside it names the link). */
export function brandMarkSvg(): string {
  const { viewBox, size, radius, path } = BRAND_MARK;
  return (
    `<svg class="fd-brand__mark" viewBox="${viewBox}" width="${size}" height="${size}" aria-hidden="true" focusable="false">` +
    `<rect class="fd-brand__tile" width="32" height="32" rx="${radius}"/><path class="fd-brand__letter" d="${path}"/></svg>`
  );
}
