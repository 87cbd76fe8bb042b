import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_MOVED_REDIRECT_MS,
  APPROVAL,
  APPROVAL_LABEL_KEYS,
  APPROVALS,
  BOT_CHECK_READY_INTERVAL_MS,
  BOT_CHECK_READY_RETRIES,
  CHUNK_LOAD_TIMEOUT_MS,
  COPYRIGHT_FIRST_YEAR,
  copyrightYears,
  DEFAULT_ITEM_MAX_LENGTH,
  DEFAULT_LANGUAGE,
  DEFAULT_THEME,
  DEVICE_ROLE_ICONS,
  DEVICE_TYPE_LABEL_KEYS,
  DEVICE_TYPES,
  deviceRoleIcon,
  deviceTypeLabelKey,
  DUO_POPUP_POLL_MS,
  EMAIL_INPUT_DEBOUNCE_MS,
  ERROR_TRACE_SAMPLE_RATE,
  GENERIC_DEVICE_ROLE_ICON,
  isApproval,
  isKnownFolder,
  KNOWN_FOLDER_LABEL_KEYS,
  KNOWN_FOLDERS,
  knownFolderLabelKey,
  LOGIN_CARD_WIDTH_PX,
  LOGOUT_RETRY_MS,
  MESSAGE_AUTO_HIDE_MS,
  MFA_CODE_LENGTH,
  NAME_MAX_LENGTH,
  ORGANIZATION_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_CLASSES,
  PASSWORD_MIN_LENGTH,
  PHONE_CONFIRMATION_DIGITS,
  PUBLIC_ASSET_BASE_PATH,
  SMS_RESEND_DEBOUNCE_MS,
  STATUS_COLORS,
  statusColor,
  STATUSES,
  TEAM_SIZE_OPTIONS,
  twentyMiB,
  UNSUPPORTED_SMS_CALLING_CODES,
} from '../../src/platform';
import { DEFAULT_LANGUAGE as APP_DEFAULT_LANGUAGE } from '../../src/app/i18n';
import { DEFAULT_THEME as APP_DEFAULT_THEME } from '../../src/app/site';

const en = {
  platform: JSON.parse(readFileSync('locales/en-us/platform.json', 'utf8')) as Record<string, Record<string, string>>,
};
/** The English text of a 'platform.a.b' key. */
function english(key: string): string | undefined {
  const [ns, group, name] = key.split('.');
  expect(ns).toBe('platform');
  return en.platform[group ?? '']?.[name ?? ''];
}

describe('status colours', () => {
  it('maps ARCHIVED, DISABLED, ENABLED to distinct hex colours', () => {
    expect(STATUSES).toEqual(['ARCHIVED', 'DISABLED', 'ENABLED']);
    expect(Object.keys(STATUS_COLORS).sort()).toEqual([...STATUSES].sort());
    for (const colour of Object.values(STATUS_COLORS)) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set(Object.values(STATUS_COLORS)).size).toBe(3);
    expect(statusColor('ENABLED')).toBe(STATUS_COLORS.ENABLED);
    expect(statusColor('UNKNOWN')).toBeUndefined();
    expect(statusColor('toString')).toBeUndefined();
    expect(Object.isFrozen(STATUS_COLORS)).toBe(true);
  });
});

describe('device-type labels', () => {
  it('covers Windows, Linux, Mac, VMware, Hyper-V, network devices and mobile, localised', () => {
    expect(DEVICE_TYPES).toHaveLength(7);
    expect(DEVICE_TYPES.map((type) => english(DEVICE_TYPE_LABEL_KEYS[type]))).toEqual([
      'Windows',
      'Linux',
      'Mac',
      'VMware',
      'Hyper-V',
      'Network devices',
      'Mobile',
    ]);
    expect(deviceTypeLabelKey('HYPERV')).toBe('platform.deviceTypes.HYPERV');
    expect(deviceTypeLabelKey('AMIGA')).toBeUndefined();
    expect(deviceTypeLabelKey('constructor')).toBeUndefined();
  });
});

describe('device-role icon', () => {
  it('maps known roles (case-insensitive) and falls back to the generic computer-and-speaker icon', () => {
    expect(deviceRoleIcon('WINDOWS_SERVER')).toBe('windowsServer');
    expect(deviceRoleIcon(' windows_server ')).toBe('windowsServer');
    for (const [role, icon] of Object.entries(DEVICE_ROLE_ICONS)) expect(deviceRoleIcon(role)).toBe(icon);
    expect(GENERIC_DEVICE_ROLE_ICON).toBe('computerSpeaker');
    for (const unknown of ['TOASTER', '', null, undefined, '__proto__', 'constructor']) expect(deviceRoleIcon(unknown)).toBe(GENERIC_DEVICE_ROLE_ICON);
  });
});

describe('known-folder labels', () => {
  it('every folder has a localised label', () => {
    for (const folder of KNOWN_FOLDERS) {
      expect(KNOWN_FOLDER_LABEL_KEYS[folder]).toBe(`platform.knownFolders.${folder}`);
      expect(english(KNOWN_FOLDER_LABEL_KEYS[folder]), folder).toBeTruthy();
    }
    expect(Object.keys(en.platform.knownFolders ?? {}).sort()).toEqual([...KNOWN_FOLDERS].sort());
  });
  it('videos shows Movies only with the flag', () => {
    expect(english(knownFolderLabelKey('videos')!)).toBe('Videos');
    expect(english(knownFolderLabelKey('videos', { moviesLabel: false })!)).toBe('Videos');
    expect(english(knownFolderLabelKey('videos', { moviesLabel: true })!)).toBe('Movies');
    expect(english(knownFolderLabelKey('music', { moviesLabel: true })!)).toBe('Music');
    expect(knownFolderLabelKey('nowhere')).toBeUndefined();
    expect(isKnownFolder('temp')).toBe(true);
    expect(isKnownFolder('Temp')).toBe(false);
  });
});

describe('approval constants', () => {
  it('APPROVED, REJECTED, MANUAL with labels', () => {
    expect(APPROVAL).toEqual({ APPROVED: 'APPROVED', REJECTED: 'REJECTED', MANUAL: 'MANUAL' });
    expect(APPROVALS).toEqual(['APPROVED', 'REJECTED', 'MANUAL']);
    expect(APPROVALS.map((a) => english(APPROVAL_LABEL_KEYS[a]))).toEqual(['Approved', 'Rejected', 'Manual']);
    expect(isApproval('MANUAL')).toBe(true);
    expect(isApproval('manual')).toBe(false);
    expect(isApproval(undefined)).toBe(false);
    expect(Object.isFrozen(APPROVAL)).toBe(true);
  });
});

describe('twentyMiB and the business constants (SPEC §9)', () => {
  it('twentyMiB is 20 × 1024 × 1024', () => {
    expect(twentyMiB).toBe(20 * 1024 * 1024);
    expect(twentyMiB).toBe(20_971_520);
  });
  it('has the values of the table', () => {
    expect([PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_CLASSES]).toEqual([8, 72, 3]);
    expect(MFA_CODE_LENGTH).toBe(6);
    expect(PHONE_CONFIRMATION_DIGITS).toBe(4);
    expect(EMAIL_INPUT_DEBOUNCE_MS).toBe(250);
    expect(SMS_RESEND_DEBOUNCE_MS).toBe(500);
    expect(DUO_POPUP_POLL_MS).toBe(1000);
    expect(ACCOUNT_MOVED_REDIRECT_MS).toBe(5000);
    expect(MESSAGE_AUTO_HIDE_MS).toBe(5000);
    expect(LOGOUT_RETRY_MS).toBe(3000);
    expect([BOT_CHECK_READY_RETRIES, BOT_CHECK_READY_INTERVAL_MS]).toEqual([30, 100]);
    expect(NAME_MAX_LENGTH).toBe(150);
    expect(ORGANIZATION_NAME_MAX_LENGTH).toBe(1000);
    expect(DEFAULT_ITEM_MAX_LENGTH).toBe(150);
    expect(UNSUPPORTED_SMS_CALLING_CODES).toEqual(['65', '971', '855', '880']);
    expect(TEAM_SIZE_OPTIONS).toEqual(['1', '2-5', '6-15', '16-30', 'over30']);
    expect(ERROR_TRACE_SAMPLE_RATE).toBe(0.01);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(PUBLIC_ASSET_BASE_PATH).toBe('/');
    expect(COPYRIGHT_FIRST_YEAR).toBe(2014);
    expect(copyrightYears(new Date(2026, 5, 1))).toBe('2014–2026');
    expect(LOGIN_CARD_WIDTH_PX).toBe(450);
  });
  it('agree with the app where the app has its own copy', () => {
    expect(DEFAULT_LANGUAGE).toBe('en-us');
    expect(DEFAULT_LANGUAGE).toBe(APP_DEFAULT_LANGUAGE);
    expect(DEFAULT_THEME).toBe('theme-ninja-blue');
    expect(DEFAULT_THEME).toBe(APP_DEFAULT_THEME);
  });
});
