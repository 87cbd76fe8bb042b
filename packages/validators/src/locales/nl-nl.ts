/** Validation texts, nl-nl. The Front Door app's locales/nl-nl/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Verplicht",
  invalid: "Ongeldig",
  email: "Ongeldig e-mailadres",
  password: "Het wachtwoord moet tussen (8) en (72) tekens lang zijn en aan 3 van de volgende criteria voldoen: kleine letter, hoofdletter, speciaal teken, cijfer.",
  passwordsDoNotMatch: "De wachtwoorden komen niet overeen",
  mfaCode: "Ongeldige code",
  minLength: "Het veld moet minstens {{minCount}} tekens bevatten.",
  maxLength: "Het veld overschrijdt het maximum van {{maxCount}} tekens.",
  minItems: "Selecteer minstens {{minCount}} items.",
  maxItems: "Het veld overschrijdt het maximum van {{maxCount}} items.",
  minimum: "De waarde moet minstens {{limit}} zijn.",
  maximum: "De waarde mag hoogstens {{limit}} zijn.",
  integerRange: "Voer een geheel getal in van {{min}} tot en met {{max}}.",
  inUse: "Deze waarde is al in gebruik.",
  emailInUse: "Dit e-mailadres is al geregistreerd.",
  format: {
    ipv4: "Voer een geldig IPv4-adres in.",
    ipv6: "Voer een geldig IPv6-adres in.",
    ip: "Voer een geldig IP-adres in.",
    cidr: "Voer een geldig CIDR-blok in, bijv. 10.0.0.0/8.",
    "ip-range": "Voer een geldig IP-bereik in (begin-eind, begin niet na eind).",
    url: "Voer een geldige URL in.",
    "secure-url": "Voer een geldige https://-URL in.",
    uri: "Voer een geldige URI in.",
    "windows-path": "Voer een geldig Windows-pad in.",
    "mac-path": "Voer een geldig Mac-pad in.",
    "unc-path": "Voer een geldig UNC-pad in.",
    hostname: "Voer een geldige hostnaam in.",
    "dns-name": "Voer een geldige DNS-naam in.",
    email: "Ongeldig e-mailadres",
    alphanumeric: "Gebruik alleen letters en cijfers.",
    "kb-number": "Voer een geldig KB-nummer in.",
    key32: "Voer een sleutel van 32 tekens in, bestaande uit letters en cijfers.",
    oid: "Voer een geldige OID in die met een punt begint.",
    "decimal-or-fraction": "Voer een decimaal getal of een breuk in.",
    "wildcard-item": "Voer minstens 3 tekens in met een jokerteken (*) aan het begin of einde.",
    "mfa-code": "Ongeldige code"
  }
};
