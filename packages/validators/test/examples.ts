/** Valid and invalid examples per format; used by the tests and quoted in docs/validators.md. */
import type { FormatName } from "../src/formats.js";

export const examples: Record<FormatName, { valid: string[]; invalid: string[] }> = {
  ipv4: { valid: ["192.168.0.1", "0.0.0.0", "255.255.255.255"], invalid: ["256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4 "] },
  ipv6: {
    valid: ["::1", "2001:db8::7", "fe80::1:2:3:4", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8"],
    invalid: ["1::2::3", "12345::", "fe80::1%eth0", "[::1]", "1:2:3:4:5:6:7:8:9", "1:2:3:4::5:6:7:8"],
  },
  ip: { valid: ["10.0.0.1", "2001:db8::1"], invalid: ["10.0.0", "2001:db8:::1", "localhost"] },
  cidr: {
    valid: ["10.0.0.0/8", "192.168.1.0/24", "0.0.0.0/0", "2001:db8::/32", "::/0", "::1/128"],
    invalid: ["10.0.0.0/33", "10.0.0.0", "10.0.0.0/08", "2001:db8::/129", "10.0.0.0/"],
  },
  "ip-range": {
    valid: ["10.0.0.1-10.0.0.254", "10.0.0.1-10.0.0.1", "2001:db8::1-2001:db8::ff"],
    invalid: ["10.0.0.9-10.0.0.1", "10.0.0.1-2001:db8::1", "10.0.0.1 - 10.0.0.2", "10.0.0.1-", "2001:db8::ff-2001:db8::1"],
  },
  url: {
    valid: [
      "https://example.com/path?q=1#top", "http://localhost:8080", "ftp://ftp.example.org/file.txt", "http://[2001:db8::1]:443/",
      "https://user:pw@10.0.0.1:65535/", "HTTP://EXAMPLE.COM", "http://:token@example.com:/",
    ],
    invalid: [
      "example.com", "//example.com", "http://", "http://exa mple.com", "https://example.com/%zz", "http://example.com:port/",
      "javascript:alert(1)", "JaVaScRiPt://example.com/%0Aalert(1)", "data:text/html,<b>x</b>", "vbscript:msgbox(1)", "file:///etc/passwd",
      "mailto:joe@example.com", "http://-example.com", "http://example-.com", "http://a..b.com", "http://xn--.com",
      "http://300.0.0.1/", "http://3628126748", "http://123.123.123", "http://0x7f.1", "http://0x7f000001",
      "http://example.com:70000", "http://example.com:99999", "http://[v1.fe]/", "https://example.com/" + "a".repeat(8000), "http://@example.com", "http://:@example.com",
    ],
  },
  "secure-url": {
    valid: ["https://example.com", "HTTPS://example.com/a?b", "https://10.0.0.1:8443/x"],
    invalid: ["http://example.com", "https://", "ftp://example.com", "https:example.com", "https://256.1.1.1", "javascript:alert(1)"],
  },
  uri: {
    valid: ["https://example.com/a?b#c", "mailto:joe@example.com", "urn:isbn:0451450523", "tel:+1-816-555-1212", "file:///etc/hosts", "http://999.999.999.999/", "ldap://[2001:db8::7]/c=GB?objectClass?one"],
    invalid: ["example.com", "//example.com/x", "/abc", "1http://x", "http://exa mple.com", "https://example.com/%zz", "http://example.com:port/", "http://[::1/", "h\u00e9llo:x"],
  },
  "windows-path": {
    valid: ["C:\\", "C:\\Program Files\\Vendor\\app.exe", "d:/temp/logs/", "%ProgramData%\\Vendor", "%TEMP%"],
    invalid: ["Program Files\\x", "C:\\a|b", "C:\\temp\\CON", "C:\\dir.\\x", "C:\\\\double", "\\\\server\\share"],
  },
  "mac-path": {
    valid: ["/", "/Library/Logs/app.log", "~/Documents", "~", "/Applications/My App.app/"],
    invalid: ["Library/Logs", "//double", "/a//b", "~user/x", "/bad\u0000nul"],
  },
  "unc-path": {
    valid: ["\\\\server\\share", "\\\\fs01.corp.example.com\\C$\\Logs\\today.txt", "\\\\10.0.0.5\\public\\", "\\\\NAS_01\\media"],
    invalid: ["\\\\server", "\\\\server\\", "\\server\\share", "\\\\ser ver\\share", "\\\\server\\sh:are", "//server/share"],
  },
  hostname: {
    valid: ["example.com", "host-01", "a--b.com", "123.example", "1host", "xn--9n2bp8q.xn--9t4b11yi5a", "xn--bcher-kva.example"],
    invalid: ["-host", "host_name", "example.com.", "ex ample.com", "xn--X", "xn--", "a".repeat(64) + ".com", "1.2.3.4", "example.0", "123"],
  },
  "dns-name": {
    valid: ["example.com", "example.com.", "_sip._tcp.example.com", "*.example.com", "_dmarc.example.com"],
    invalid: ["*", "a.*.example.com", "example..com", "-bad.example.com", "example.com..", "192.168.0.1.", "*.42"],
  },
  email: {
    valid: ["joe.bloggs@example.com", "first+tag@sub.example.co.uk", "o'brien@example.ie", "x@xn--bcher-kva.example"],
    invalid: ["joe", "joe@localhost", "joe@example", "joe..b@example.com", ".joe@example.com", '"joe"@example.com', "joe@[127.0.0.1]", "joe@example.123", "z@co.c", "joe@example.c0m", "joe@example.xn-a"],
  },
  alphanumeric: { valid: ["abc123", "ABC", "7"], invalid: ["", "abc-123", "abc 123", "ä"] },
  "kb-number": { valid: ["KB5034441", "kb890830", "4023057"], invalid: ["KB", "KB12", "KB012345", "KB-5034441", "KB123456789"] },
  key32: { valid: ["0123456789abcdefABCDEF0123456789"], invalid: ["0123456789abcdef", "0123456789abcdefABCDEF0123456789X", "0123456789abcdef-BCDEF0123456789"] },
  oid: { valid: [".1.3.6.1.2.1.1.5.0", ".1.3", ".2.999.1"], invalid: ["1.3.6.1", ".1", ".1..3", ".1.3.", ".01.3", ".3.1", ".1.40"] },
  "decimal-or-fraction": { valid: ["2", "0.75", ".5", "-1.25", "3/4", "+1/8"], invalid: ["", "1.", "1/0", "1/00", "1e3", "1 1/2", "a/b", "-"] },
  "wildcard-item": { valid: ["*.log", "backup*", "*tmp*", "**a"], invalid: ["*a", "***", "a*b", "log", "* *"] },
  "mfa-code": { valid: ["123456", "000000"], invalid: ["12345", "1234567", "12 456", "abcdef"] },
};
