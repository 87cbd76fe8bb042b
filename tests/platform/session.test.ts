import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  displayNameOf,
  featureFlags,
  FEATURE_FLAGS,
  hasServerPermission,
  isEndUser,
  isFeatureEnabled,
  isSysadmin,
  loadSession,
  mapUser,
  parseSession,
  serverPermissionsOverride,
  setServerPermissionsOverride,
} from '../../src/platform';
import { json, SESSION, stubFetch } from './helpers';

afterEach(() => {
  vi.unstubAllGlobals();
  setServerPermissionsOverride(null);
});

describe('mapUser (SPEC §3 mapped user shape)', () => {
  it('takes userType from entityType, clientId or else organizationId, and the full name', () => {
    expect(mapUser(SESSION.user)).toEqual({
      email: 'nomfa@demo.test',
      firstName: 'Nico',
      lastName: 'Nomfa',
      id: 7,
      uid: 'u-7',
      userType: 'TECHNICIAN',
      clientId: 1,
      displayName: 'Nico Nomfa',
      sysadmin: false,
    });
    expect(mapUser({ ...SESSION.user, clientId: 101 })?.clientId).toBe(101);
    expect(mapUser({ ...SESSION.user, organizationId: undefined })?.clientId).toBeUndefined();
  });
  it('displayName falls back to the email', () => {
    expect(mapUser({ email: 'a@b.test', id: 1, uid: 'x', entityType: 'END_USER', sysadmin: false })?.displayName).toBe('a@b.test');
    expect(displayNameOf({ email: 'a@b.test', firstName: '  ', lastName: '' })).toBe('a@b.test');
    expect(displayNameOf({ email: 'a@b.test', firstName: 'Ann' })).toBe('Ann');
    expect(displayNameOf({ email: 'a@b.test', lastName: 'Lee' })).toBe('Lee');
  });
  it('refuses unusable users', () => {
    for (const bad of [null, 'x', [], {}, { email: 'a@b.test' }, { id: 1 }, { email: '', id: 1 }, { email: 'a@b.test', id: 1.5 }])
      expect(mapUser(bad)).toBeNull();
  });
});

describe('parseSession', () => {
  it('gives userType, userSite, features (strings only, unique) and the mapped user', () => {
    const session = parseSession({ ...SESSION, features: ['helpCenter', 3, 'helpCenter', 'ticketTimers'] })!;
    expect(session.userType).toBe('TECHNICIAN');
    expect(session.userSite).toBe('http://localhost:8080');
    expect(session.features).toEqual(['helpCenter', 'ticketTimers']);
    expect(session.user.displayName).toBe('Nico Nomfa');
  });
  it('tolerates missing features and userType', () => {
    const session = parseSession({ user: SESSION.user })!;
    expect(session.features).toEqual([]);
    expect(session.userType).toBe('TECHNICIAN');
    expect(parseSession(null)).toBeNull();
    expect(parseSession({ user: null })).toBeNull();
  });
  it('isSysadmin and isEndUser', () => {
    expect(isSysadmin(parseSession(SESSION))).toBe(false);
    expect(isSysadmin(parseSession({ ...SESSION, user: { ...SESSION.user, sysadmin: true } }))).toBe(true);
    expect(isSysadmin(parseSession({ ...SESSION, user: { ...SESSION.user, sysadmin: 'true' } }))).toBe(false);
    expect(isSysadmin(null)).toBe(false);
    expect(isEndUser(parseSession({ ...SESSION, userType: 'END_USER' }))).toBe(true);
    expect(isEndUser(parseSession(SESSION))).toBe(false);
  });
});

describe('loadSession', () => {
  it('parses the answer of GET /ws/account/session', async () => {
    stubFetch({ '/ws/account/session': () => json(SESSION) });
    const result = await loadSession();
    expect(result.ok && result.session.user.email).toBe('nomfa@demo.test');
  });
  it('UNAUTHENTICATED on 401, the transport code otherwise', async () => {
    stubFetch({ '/ws/account/session': () => json({ error: 'UNAUTHENTICATED', message: 'x' }, 401) });
    expect(await loadSession()).toEqual({ ok: false, code: 'UNAUTHENTICATED' });
    stubFetch({ '/ws/account/session': () => json({ error: 'INTERNAL', message: 'x' }, 500) });
    expect(await loadSession()).toEqual({ ok: false, code: 'HTTP_500' });
  });
});

describe('server permissions test override', () => {
  it('answers from the server list without an override', () => {
    expect(hasServerPermission('tickets.edit', ['tickets.edit'])).toBe(true);
    expect(hasServerPermission('tickets.edit', [])).toBe(false);
    expect(serverPermissionsOverride()).toBeNull();
  });
  it('the override wins for the permissions it names, and can be removed', () => {
    setServerPermissionsOverride({ 'tickets.edit': false, 'devices.delete': true });
    expect(hasServerPermission('tickets.edit', ['tickets.edit'])).toBe(false);
    expect(hasServerPermission('devices.delete', [])).toBe(true);
    expect(hasServerPermission('other', ['other'])).toBe(true);
    expect(Object.isFrozen(serverPermissionsOverride())).toBe(true);
    setServerPermissionsOverride(null);
    expect(hasServerPermission('tickets.edit', ['tickets.edit'])).toBe(true);
  });
});

describe('feature flags', () => {
  it('come from the features list', () => {
    const flags = featureFlags(['helpCenter', 'unknownThing']);
    expect(Object.keys(flags).sort()).toEqual([...FEATURE_FLAGS].sort());
    expect(flags.helpCenter).toBe(true);
    expect(flags.ticketTimers).toBe(false);
    expect(isFeatureEnabled(['unknownThing'], 'unknownThing')).toBe(true);
    expect(isFeatureEnabled(undefined, 'helpCenter')).toBe(false);
    expect(featureFlags(null).helpCenter).toBe(false);
    expect(Object.isFrozen(flags)).toBe(true);
  });
});
