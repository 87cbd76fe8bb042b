/** Validation texts, fr-ca. The Front Door app's locales/fr-ca/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Obligatoire",
  invalid: "Non valide",
  email: "Adresse courriel non valide",
  password: "Le mot de passe doit comporter entre (8) et (72) caractères et remplir 3 des critères suivants : lettre minuscule, lettre majuscule, caractère spécial, chiffre.",
  passwordsDoNotMatch: "Les mots de passe ne correspondent pas",
  mfaCode: "Code non valide",
  minLength: "Le champ doit contenir au moins {{minCount}} caractères.",
  maxLength: "Le champ dépasse le nombre maximal de {{maxCount}} caractères.",
  minItems: "Sélectionnez au moins {{minCount}} éléments.",
  maxItems: "Le champ dépasse le nombre maximal de {{maxCount}} éléments.",
  minimum: "La valeur doit être au moins {{limit}}.",
  maximum: "La valeur doit être au plus {{limit}}.",
  integerRange: "Saisissez un nombre entier entre {{min}} et {{max}}.",
  inUse: "Cette valeur est déjà utilisée.",
  emailInUse: "Cette adresse courriel est déjà enregistrée.",
  format: {
    ipv4: "Saisissez une adresse IPv4 valide.",
    ipv6: "Saisissez une adresse IPv6 valide.",
    ip: "Saisissez une adresse IP valide.",
    cidr: "Saisissez un bloc CIDR valide, p. ex. 10.0.0.0/8.",
    "ip-range": "Saisissez une plage IP valide (début-fin, le début ne doit pas dépasser la fin).",
    url: "Saisissez une URL valide.",
    "secure-url": "Saisissez une URL https:// valide.",
    uri: "Saisissez un URI valide.",
    "windows-path": "Saisissez un chemin Windows valide.",
    "mac-path": "Saisissez un chemin Mac valide.",
    "unc-path": "Saisissez un chemin UNC valide.",
    hostname: "Saisissez un nom d’hôte valide.",
    "dns-name": "Saisissez un nom DNS valide.",
    email: "Adresse courriel non valide",
    alphanumeric: "Utilisez uniquement des lettres et des chiffres.",
    "kb-number": "Saisissez un numéro KB valide.",
    key32: "Saisissez une clé de 32 caractères composée de lettres et de chiffres.",
    oid: "Saisissez un OID valide commençant par un point.",
    "decimal-or-fraction": "Saisissez un nombre décimal ou une fraction.",
    "wildcard-item": "Saisissez au moins 3 caractères avec un caractère générique (*) au début ou à la fin.",
    "mfa-code": "Code non valide"
  }
};
