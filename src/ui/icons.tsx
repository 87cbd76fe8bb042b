/**
 * Small inline SVG icons (24 px grid, stroked in currentColor, so they take the theme's colours and
 * forced-colors mode's system colours). Decorative: the text beside an icon, or its button's
 * accessible name, says what it means. Each icon is one path; a chunk carries only the icons it
 * uses (the MFA method icons live with their widget).
 */
export function Icon({ d, size = 20, className, fill }: { d: string; size?: number; className?: string; fill?: string }) {
  return (
    <svg
      className={className ? `fd-icon ${className}` : 'fd-icon'}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={d} />
      {fill ? <path d={fill} fill="currentColor" stroke="none" /> : null}
    </svg>
  );
}

type IconProps = { size?: number; className?: string };

/** A circle of radius 9 around the centre, as path data. */
const RING = 'M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z';

export const IconSuccess = (p: IconProps) => <Icon {...p} d={`${RING}m-13 .5 2.5 2.5L16 9.5`} />;
export const IconError = (p: IconProps) => <Icon {...p} d={`${RING}M12 7.5v5.5m0 3.5h.01`} />;
export const IconWarning = (p: IconProps) => (
  <Icon {...p} d="M10.3 3.9 2.4 17.5a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0ZM12 9v4.5m0 3.5h.01" />
);
export const IconInfo = (p: IconProps) => <Icon {...p} d={`${RING}M12 11v5.5m0-9h.01`} />;
export const IconMail = (p: IconProps) => <Icon {...p} d="M5 5h14a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Zm-1.5 1.5L12 13l8.5-6.5" />;
export const IconEye = (p: IconProps) => <Icon {...p} d="M2.5 12S6 5 12 5s9.5 7 9.5 7-3.5 7-9.5 7-9.5-7-9.5-7ZM15 12a3 3 0 1 1-6 0 3 3 0 0 1 6 0Z" />;
export const IconEyeOff = (p: IconProps) => (
  <Icon
    {...p}
    d="M9.9 5.2A9.7 9.7 0 0 1 12 5c6 0 9.5 7 9.5 7a16 16 0 0 1-2.6 3.5M6.6 6.6A15.6 15.6 0 0 0 2.5 12S6 19 12 19a9.4 9.4 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2M3 3l18 18"
  />
);
export const IconGlobe = (p: IconProps) => <Icon {...p} d={`${RING}M3 12h18M12 3a14 14 0 0 1 0 18 14 14 0 0 1 0-18`} />;
export const IconContrast = (p: IconProps) => <Icon {...p} d={RING} fill="M12 3v18a9 9 0 0 0 0-18Z" />;
export const IconClose = (p: IconProps) => <Icon {...p} d="M6 6l12 12M18 6 6 18" />;
export const IconCopy = (p: IconProps) => (
  <Icon {...p} d="M11 9h7a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2h-7a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2Zm4-3.5V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h.5" />
);
export const IconCheck = (p: IconProps) => <Icon {...p} d="m5 12.5 4.5 4.5L19 7.5" />;
export const IconPerson = (p: IconProps) => <Icon {...p} d="M16 8a4 4 0 1 1-8 0 4 4 0 0 1 8 0ZM4 20a8 8 0 0 1 16 0" />;

/** The status icons a card, an alert or a content block can name in screen data. */
export const STATUS_ICONS = { success: IconSuccess, error: IconError, warning: IconWarning, info: IconInfo, email: IconMail, person: IconPerson } as const;
export type StatusIconName = keyof typeof STATUS_ICONS;
