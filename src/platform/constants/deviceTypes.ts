/** Device types and their label keys (locales/en-us/platform.json, platform.deviceTypes.*). */
export const DEVICE_TYPES = ['WINDOWS', 'LINUX', 'MAC', 'VMWARE', 'HYPERV', 'NETWORK', 'MOBILE'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const DEVICE_TYPE_LABEL_KEYS: Readonly<Record<DeviceType, string>> = Object.freeze({
  WINDOWS: 'platform.deviceTypes.WINDOWS',
  LINUX: 'platform.deviceTypes.LINUX',
  MAC: 'platform.deviceTypes.MAC',
  VMWARE: 'platform.deviceTypes.VMWARE',
  HYPERV: 'platform.deviceTypes.HYPERV',
  NETWORK: 'platform.deviceTypes.NETWORK',
  MOBILE: 'platform.deviceTypes.MOBILE',
});

/** The i18n key of a device type's label; undefined for an unknown type. */
export function deviceTypeLabelKey(type: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(DEVICE_TYPE_LABEL_KEYS, type) ? DEVICE_TYPE_LABEL_KEYS[type as DeviceType] : undefined;
}
