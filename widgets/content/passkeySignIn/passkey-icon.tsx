import { Icon } from '../../../src/ui';

/** A key with a person: the passkey mark (decorative, beside its text). */
export const IconPasskey = ({ size = 20 }: { size?: number }) => (
  <Icon
    size={size}
    d="M10 7a3.5 3.5 0 1 1-7 0 3.5 3.5 0 0 1 7 0ZM2 20a4.5 4.5 0 0 1 9-1.5M19 10a3 3 0 1 1-6 0 3 3 0 0 1 6 0Zm-3 3v8l2-1.5-1.5-1.5 1.5-1.5-2-1.5"
  />
);
