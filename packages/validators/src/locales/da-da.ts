/** Validation texts, da-da. The Front Door app's locales/da-da/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Påkrævet",
  invalid: "Ugyldig",
  email: "Ugyldig e-mailadresse",
  password: "Adgangskoden skal være på mellem (8) og (72) tegn og opfylde 3 af følgende krav: lille bogstav, stort bogstav, specialtegn, tal.",
  passwordsDoNotMatch: "Adgangskoderne stemmer ikke overens",
  mfaCode: "Ugyldig kode",
  minLength: "Feltet skal indeholde mindst {{minCount}} tegn.",
  maxLength: "Feltet overskrider det maksimale antal tegn på {{maxCount}}.",
  minItems: "Vælg mindst {{minCount}} elementer.",
  maxItems: "Feltet overskrider det maksimale antal elementer på {{maxCount}}.",
  minimum: "Værdien skal være mindst {{limit}}.",
  maximum: "Værdien må højst være {{limit}}.",
  integerRange: "Indtast et heltal fra {{min}} til {{max}}.",
  inUse: "Denne værdi er allerede i brug.",
  emailInUse: "Denne e-mailadresse er allerede registreret.",
  format: {
    ipv4: "Indtast en gyldig IPv4-adresse.",
    ipv6: "Indtast en gyldig IPv6-adresse.",
    ip: "Indtast en gyldig IP-adresse.",
    cidr: "Indtast en gyldig CIDR-blok, f.eks. 10.0.0.0/8.",
    "ip-range": "Indtast et gyldigt IP-interval (start-slut, start ikke efter slut).",
    url: "Indtast en gyldig URL.",
    "secure-url": "Indtast en gyldig https://-URL.",
    uri: "Angiv en gyldig URI.",
    "windows-path": "Indtast en gyldig Windows-sti.",
    "mac-path": "Indtast en gyldig Mac-sti.",
    "unc-path": "Indtast en gyldig UNC-sti.",
    hostname: "Indtast et gyldigt værtsnavn.",
    "dns-name": "Indtast et gyldigt DNS-navn.",
    email: "Ugyldig e-mailadresse",
    alphanumeric: "Brug kun bogstaver og tal.",
    "kb-number": "Indtast et gyldigt KB-nummer.",
    key32: "Indtast en nøgle på 32 tegn med bogstaver og tal.",
    oid: "Indtast et gyldigt OID, der starter med et punktum.",
    "decimal-or-fraction": "Indtast et decimaltal eller en brøk.",
    "wildcard-item": "Indtast mindst 3 tegn med et jokertegn (*) først eller sidst.",
    "mfa-code": "Ugyldig kode"
  }
};
