/** Validation texts, it-it. The Front Door app's locales/it-it/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Obbligatorio",
  invalid: "Non valido",
  email: "Indirizzo email non valido",
  password: "La password deve contenere da (8) a (72) caratteri e soddisfare 3 dei seguenti criteri: lettera minuscola, lettera maiuscola, carattere speciale, numero.",
  passwordsDoNotMatch: "Le password non coincidono",
  mfaCode: "Codice non valido",
  minLength: "Il campo deve contenere almeno {{minCount}} caratteri.",
  maxLength: "Il campo supera il numero massimo di {{maxCount}} caratteri.",
  minItems: "Seleziona almeno {{minCount}} elementi.",
  maxItems: "Il campo supera il numero massimo di {{maxCount}} elementi.",
  minimum: "Il valore deve essere almeno {{limit}}.",
  maximum: "Il valore non può superare {{limit}}.",
  integerRange: "Inserisci un numero intero da {{min}} a {{max}}.",
  inUse: "Questo valore è già in uso.",
  emailInUse: "Questo indirizzo email è già registrato.",
  format: {
    ipv4: "Inserisci un indirizzo IPv4 valido.",
    ipv6: "Inserisci un indirizzo IPv6 valido.",
    ip: "Inserisci un indirizzo IP valido.",
    cidr: "Inserisci un blocco CIDR valido, ad es. 10.0.0.0/8.",
    "ip-range": "Inserisci un intervallo IP valido (inizio-fine, l’inizio non può essere dopo la fine).",
    url: "Inserisci un URL valido.",
    "secure-url": "Inserisci un URL https:// valido.",
    uri: "Inserisci un URI valido.",
    "windows-path": "Inserisci un percorso Windows valido.",
    "mac-path": "Inserisci un percorso Mac valido.",
    "unc-path": "Inserisci un percorso UNC valido.",
    hostname: "Inserisci un nome host valido.",
    "dns-name": "Inserisci un nome DNS valido.",
    email: "Indirizzo email non valido",
    alphanumeric: "Usa solo lettere e numeri.",
    "kb-number": "Inserisci un numero KB valido.",
    key32: "Inserisci una chiave di 32 caratteri composta da lettere e numeri.",
    oid: "Inserisci un OID valido che inizi con un punto.",
    "decimal-or-fraction": "Inserisci un numero decimale o una frazione.",
    "wildcard-item": "Inserisci almeno 3 caratteri con un carattere jolly (*) all’inizio o alla fine.",
    "mfa-code": "Codice non valido"
  }
};
