/**
 * The session (SPEC §3, §6): userType, userSite, features, and the mapped user shape. Pure: parse
 * and map an untrusted GET /ws/account/session answer; React lives in useSession.ts.
 */
export type UserType = 'TECHNICIAN' | 'END_USER';

/** The mapped user shape of SPEC §3. */
export interface MappedUser {
  email: string;
  firstName: string;
  lastName: string;
  id: number;
  uid: string;
  /** Taken from the server's entityType. */
  userType: UserType | string;
  /** clientId, or organizationId when there is none. */
  clientId: number | undefined;
  /** Full name, or the email when there is no name. */
  displayName: string;
  /** The sysadmin flag of the user attributes. */
  sysadmin: boolean;
}

export interface Session {
  user: MappedUser;
  userType: UserType | string;
  /** Origin of the user's site. */
  userSite: string;
  /** Feature flags (see feature-flags). */
  features: readonly string[];
  /** The user's MFA methods, PRIMARY first (the Verify MFA modal offers these); [] when none or unknown. */
  mfaMethods: readonly string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

export function displayNameOf(user: { email: string; firstName?: string; lastName?: string }): string {
  const full = [user.firstName, user.lastName]
    .map((part) => (part ?? '').trim())
    .filter(Boolean)
    .join(' ');
  return full || user.email;
}

/** Maps the server's user (entityType, clientId/organizationId) to the shape the product uses; null when unusable. */
export function mapUser(raw: unknown): MappedUser | null {
  if (!isRecord(raw)) return null;
  const email = str(raw.email);
  const id = int(raw.id);
  if (!email || id === undefined) return null;
  const firstName = str(raw.firstName);
  const lastName = str(raw.lastName);
  return {
    email,
    firstName,
    lastName,
    id,
    uid: str(raw.uid),
    userType: str(raw.entityType),
    clientId: int(raw.clientId) ?? int(raw.organizationId),
    displayName: displayNameOf({ email, firstName, lastName }),
    sysadmin: raw.sysadmin === true,
  };
}

/** A session from an untrusted answer; null when it has no usable user. */
export function parseSession(data: unknown): Session | null {
  if (!isRecord(data)) return null;
  const user = mapUser(data.user);
  if (!user) return null;
  const features = Array.isArray(data.features) ? data.features.filter((f): f is string => typeof f === 'string') : [];
  return {
    user,
    userType: str(data.userType) || user.userType,
    userSite: str(data.userSite),
    features: Object.freeze([...new Set(features)]),
    mfaMethods: Object.freeze(Array.isArray(data.mfaMethods) ? [...new Set(data.mfaMethods.filter((m): m is string => typeof m === 'string'))] : []),
  };
}

export function isSysadmin(session: Pick<Session, 'user'> | null | undefined): boolean {
  return session?.user.sysadmin === true;
}

export function isEndUser(session: Pick<Session, 'userType'> | null | undefined): boolean {
  return session?.userType === 'END_USER';
}

/*
 * Server permissions are decided server-side. For tests (unit and e2e) they can be overridden:
 * setServerPermissionsOverride({ 'tickets.edit': true }) makes hasServerPermission answer from the
 * override first; null removes it.
 */
let permissionsOverride: Readonly<Record<string, boolean>> | null = null;

export function setServerPermissionsOverride(override: Record<string, boolean> | null): void {
  permissionsOverride = override ? Object.freeze({ ...override }) : null;
}

export function serverPermissionsOverride(): Readonly<Record<string, boolean>> | null {
  return permissionsOverride;
}

/** Whether a permission is granted: the test override when it names the permission, else the server's list. */
export function hasServerPermission(permission: string, granted: readonly string[] = []): boolean {
  if (permissionsOverride && Object.prototype.hasOwnProperty.call(permissionsOverride, permission)) {
    return permissionsOverride[permission] === true;
  }
  return granted.includes(permission);
}
