/** Validation texts, de-de. The Front Door app's locales/de-de/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Pflichtfeld",
  invalid: "Ungültig",
  email: "Ungültige E-Mail-Adresse",
  password: "Das Passwort muss zwischen (8) und (72) Zeichen lang sein und 3 der folgenden Kriterien erfüllen: Kleinbuchstabe, Großbuchstabe, Sonderzeichen, Ziffer.",
  passwordsDoNotMatch: "Die Passwörter stimmen nicht überein",
  mfaCode: "Ungültiger Code",
  minLength: "Das Feld muss mindestens {{minCount}} Zeichen enthalten.",
  maxLength: "Das Feld überschreitet die maximale Zeichenanzahl von {{maxCount}}.",
  minItems: "Wählen Sie mindestens {{minCount}} Einträge aus.",
  maxItems: "Das Feld überschreitet die maximale Anzahl von {{maxCount}} Einträgen.",
  minimum: "Der Wert muss mindestens {{limit}} sein.",
  maximum: "Der Wert darf höchstens {{limit}} sein.",
  integerRange: "Geben Sie eine ganze Zahl von {{min}} bis {{max}} ein.",
  inUse: "Dieser Wert wird bereits verwendet.",
  emailInUse: "Diese E-Mail-Adresse ist bereits registriert.",
  format: {
    ipv4: "Geben Sie eine gültige IPv4-Adresse ein.",
    ipv6: "Geben Sie eine gültige IPv6-Adresse ein.",
    ip: "Geben Sie eine gültige IP-Adresse ein.",
    cidr: "Geben Sie einen gültigen CIDR-Block ein, z. B. 10.0.0.0/8.",
    "ip-range": "Geben Sie einen gültigen IP-Bereich ein (Anfang-Ende, Anfang nicht nach Ende).",
    url: "Geben Sie eine gültige URL ein.",
    "secure-url": "Geben Sie eine gültige https://-URL ein.",
    uri: "Geben Sie einen gültigen URI ein.",
    "windows-path": "Geben Sie einen gültigen Windows-Pfad ein.",
    "mac-path": "Geben Sie einen gültigen Mac-Pfad ein.",
    "unc-path": "Geben Sie einen gültigen UNC-Pfad ein.",
    hostname: "Geben Sie einen gültigen Hostnamen ein.",
    "dns-name": "Geben Sie einen gültigen DNS-Namen ein.",
    email: "Ungültige E-Mail-Adresse",
    alphanumeric: "Verwenden Sie nur Buchstaben und Ziffern.",
    "kb-number": "Geben Sie eine gültige KB-Nummer ein.",
    key32: "Geben Sie einen 32-stelligen Schlüssel aus Buchstaben und Ziffern ein.",
    oid: "Geben Sie eine gültige OID ein, die mit einem Punkt beginnt.",
    "decimal-or-fraction": "Geben Sie eine Dezimalzahl oder einen Bruch ein.",
    "wildcard-item": "Geben Sie mindestens 3 Zeichen mit einem Platzhalter (*) am Anfang oder Ende ein.",
    "mfa-code": "Ungültiger Code"
  }
};
