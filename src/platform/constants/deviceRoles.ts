/**
 * Device-role icons. The product's icon library names one icon per role; an unknown role shows the
 * generic computer-and-speaker icon (SPEC §3).
 */
export const GENERIC_DEVICE_ROLE_ICON = 'computerSpeaker';

export const DEVICE_ROLE_ICONS: Readonly<Record<string, string>> = Object.freeze({
  WINDOWS_WORKSTATION: 'windowsWorkstation',
  WINDOWS_SERVER: 'windowsServer',
  LINUX_WORKSTATION: 'linuxWorkstation',
  LINUX_SERVER: 'linuxServer',
  MAC: 'macWorkstation',
  MAC_SERVER: 'macServer',
  VMWARE_VM_HOST: 'vmwareHost',
  VMWARE_VM_GUEST: 'vmwareGuest',
  HYPERV_VMM_HOST: 'hypervHost',
  HYPERV_VMM_GUEST: 'hypervGuest',
  NMS_SWITCH: 'networkSwitch',
  NMS_ROUTER: 'networkRouter',
  NMS_FIREWALL: 'networkFirewall',
  NMS_PRINTER: 'printer',
  NMS_WAP: 'wirelessAccessPoint',
  MOBILE_PHONE: 'mobilePhone',
  MOBILE_TABLET: 'mobileTablet',
});

/** The icon name of a device role; the generic icon when the role is unknown or empty. */
export function deviceRoleIcon(role: string | null | undefined): string {
  if (typeof role !== 'string') return GENERIC_DEVICE_ROLE_ICON;
  const key = role.trim().toUpperCase();
  return Object.prototype.hasOwnProperty.call(DEVICE_ROLE_ICONS, key) ? (DEVICE_ROLE_ICONS[key] as string) : GENERIC_DEVICE_ROLE_ICON;
}
