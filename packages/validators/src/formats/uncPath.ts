/**
 * `unc-path`: "\\server\share[\path…]". The server is a host name, an IPv4
 * address or a NetBIOS name (1–15 characters, none of \ / : * ? " < > | or
 * spaces); the share is 1–80 characters, none of \ / : * ? " < > | or
 * control characters (it may end in "$", e.g. "C$"); the rest follows the
 * component rules of `windows-path`, separated by backslashes only.
 */
import { hostname } from './hostname.js';
import { ipv4 } from './ipv4.js';
import { windowsComponents } from './windowsPath.js';

const BAD = '\\/:*?"<>|';

function netbios(name: string): boolean {
  if (name.length < 1 || name.length > 15) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || BAD.indexOf(name[i]!) >= 0) return false;
  }
  return true;
}

export function uncPath(s: string): boolean {
  const n = s.length;
  if (n < 5 || n > 32767 || s.charCodeAt(0) !== 0x5c || s.charCodeAt(1) !== 0x5c) return false;
  if (s.indexOf('/') >= 0) return false;
  const serverEnd = s.indexOf('\\', 2);
  if (serverEnd < 0) return false;
  const server = s.slice(2, serverEnd);
  if (!(ipv4(server) || hostname(server) || netbios(server))) return false;
  let shareEnd = s.indexOf('\\', serverEnd + 1);
  if (shareEnd < 0) shareEnd = n;
  const share = s.slice(serverEnd + 1, shareEnd);
  if (share.length < 1 || share.length > 80) return false;
  for (let i = 0; i < share.length; i++) {
    const c = share.charCodeAt(i);
    if (c < 0x20 || BAD.indexOf(share[i]!) >= 0) return false;
  }
  if (shareEnd >= n - 1) return true;
  return windowsComponents(s, shareEnd + 1);
}
