/** Validation texts, nn-nn. The Front Door app's locales/nn-nn/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Obligatorisk",
  invalid: "Ugyldig",
  email: "Ugyldig e-postadresse",
  password: "Passordet må ha mellom (8) og (72) teikn og oppfylle 3 av desse krava: liten bokstav, stor bokstav, spesialteikn, tal.",
  passwordsDoNotMatch: "Passorda er ikkje like",
  mfaCode: "Ugyldig kode",
  minLength: "Feltet må innehalde minst {{minCount}} teikn.",
  maxLength: "Feltet har fleire teikn enn grensa på {{maxCount}}.",
  minItems: "Vel minst {{minCount}} element.",
  maxItems: "Feltet har fleire element enn grensa på {{maxCount}}.",
  minimum: "Verdien må vere minst {{limit}}.",
  maximum: "Verdien kan vere høgst {{limit}}.",
  integerRange: "Skriv inn eit heiltal frå {{min}} til {{max}}.",
  inUse: "Denne verdien er allereie i bruk.",
  emailInUse: "Denne e-postadressa er allereie registrert.",
  format: {
    ipv4: "Skriv inn ei gyldig IPv4-adresse.",
    ipv6: "Skriv inn ei gyldig IPv6-adresse.",
    ip: "Skriv inn ei gyldig IP-adresse.",
    cidr: "Skriv inn ein gyldig CIDR-blokk, t.d. 10.0.0.0/8.",
    "ip-range": "Skriv inn eit gyldig IP-område (start-slutt, start ikkje etter slutt).",
    url: "Skriv inn ei gyldig URL-adresse.",
    "secure-url": "Skriv inn ei gyldig https://-adresse.",
    uri: "Skriv inn ein gyldig URI.",
    "windows-path": "Skriv inn ein gyldig Windows-sti.",
    "mac-path": "Skriv inn ein gyldig Mac-sti.",
    "unc-path": "Skriv inn ein gyldig UNC-sti.",
    hostname: "Skriv inn eit gyldig vertsnamn.",
    "dns-name": "Skriv inn eit gyldig DNS-namn.",
    email: "Ugyldig e-postadresse",
    alphanumeric: "Bruk berre bokstavar og tal.",
    "kb-number": "Skriv inn eit gyldig KB-nummer.",
    key32: "Skriv inn ein nøkkel på 32 teikn med bokstavar og tal.",
    oid: "Skriv inn ein gyldig OID som byrjar med punktum.",
    "decimal-or-fraction": "Skriv inn eit desimaltal eller ein brøk.",
    "wildcard-item": "Skriv inn minst 3 teikn med eit jokerteikn (*) først eller sist.",
    "mfa-code": "Ugyldig kode"
  }
};
