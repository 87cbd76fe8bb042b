/** Validation texts, sv-sv. The Front Door app's locales/sv-sv/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Obligatoriskt",
  invalid: "Ogiltigt",
  email: "Ogiltig e-postadress",
  password: "Lösenordet måste ha mellan (8) och (72) tecken och uppfylla 3 av följande krav: liten bokstav, stor bokstav, specialtecken, siffra.",
  passwordsDoNotMatch: "Lösenorden matchar inte",
  mfaCode: "Ogiltig kod",
  minLength: "Fältet måste innehålla minst {{minCount}} tecken.",
  maxLength: "Fältet överskrider maxantalet på {{maxCount}} tecken.",
  minItems: "Välj minst {{minCount}} objekt.",
  maxItems: "Fältet överskrider maxantalet på {{maxCount}} objekt.",
  minimum: "Värdet måste vara minst {{limit}}.",
  maximum: "Värdet får vara högst {{limit}}.",
  integerRange: "Ange ett heltal från {{min}} till {{max}}.",
  inUse: "Värdet används redan.",
  emailInUse: "E-postadressen är redan registrerad.",
  format: {
    ipv4: "Ange en giltig IPv4-adress.",
    ipv6: "Ange en giltig IPv6-adress.",
    ip: "Ange en giltig IP-adress.",
    cidr: "Ange ett giltigt CIDR-block, t.ex. 10.0.0.0/8.",
    "ip-range": "Ange ett giltigt IP-intervall (start-slut, start inte efter slut).",
    url: "Ange en giltig URL.",
    "secure-url": "Ange en giltig https://-URL.",
    uri: "Ange en giltig URI.",
    "windows-path": "Ange en giltig Windows-sökväg.",
    "mac-path": "Ange en giltig Mac-sökväg.",
    "unc-path": "Ange en giltig UNC-sökväg.",
    hostname: "Ange ett giltigt värdnamn.",
    "dns-name": "Ange ett giltigt DNS-namn.",
    email: "Ogiltig e-postadress",
    alphanumeric: "Använd bara bokstäver och siffror.",
    "kb-number": "Ange ett giltigt KB-nummer.",
    key32: "Ange en nyckel på 32 tecken med bokstäver och siffror.",
    oid: "Ange ett giltigt OID som börjar med en punkt.",
    "decimal-or-fraction": "Ange ett decimaltal eller ett bråk.",
    "wildcard-item": "Ange minst 3 tecken med ett jokertecken (*) först eller sist.",
    "mfa-code": "Ogiltig kod"
  }
};
