/** Validation texts, pl-pl. The Front Door app's locales/pl-pl/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Pole wymagane",
  invalid: "Nieprawidłowa wartość",
  email: "Nieprawidłowy adres e-mail",
  password: "Hasło musi mieć od (8) do (72) znaków i spełniać 3 z następujących kryteriów: mała litera, wielka litera, znak specjalny, cyfra.",
  passwordsDoNotMatch: "Hasła nie są zgodne",
  mfaCode: "Nieprawidłowy kod",
  minLength: "Liczba znaków w polu: co najmniej {{minCount}}.",
  maxLength: "Przekroczono maksymalną liczbę znaków w polu: {{maxCount}}.",
  minItems: "Wybierz co najmniej tyle elementów: {{minCount}}.",
  maxItems: "Przekroczono maksymalną liczbę elementów w polu: {{maxCount}}.",
  minimum: "Wartość musi wynosić co najmniej {{limit}}.",
  maximum: "Wartość może wynosić najwyżej {{limit}}.",
  integerRange: "Wpisz liczbę całkowitą od {{min}} do {{max}}.",
  inUse: "Ta wartość jest już używana.",
  emailInUse: "Ten adres e-mail jest już zarejestrowany.",
  format: {
    ipv4: "Wpisz prawidłowy adres IPv4.",
    ipv6: "Wpisz prawidłowy adres IPv6.",
    ip: "Wpisz prawidłowy adres IP.",
    cidr: "Wpisz prawidłowy blok CIDR, np. 10.0.0.0/8.",
    "ip-range": "Wpisz prawidłowy zakres IP (początek-koniec, początek nie może być po końcu).",
    url: "Wpisz prawidłowy adres URL.",
    "secure-url": "Wpisz prawidłowy adres URL https://.",
    uri: "Wprowadź prawidłowy identyfikator URI.",
    "windows-path": "Wpisz prawidłową ścieżkę systemu Windows.",
    "mac-path": "Wpisz prawidłową ścieżkę systemu Mac.",
    "unc-path": "Wpisz prawidłową ścieżkę UNC.",
    hostname: "Wpisz prawidłową nazwę hosta.",
    "dns-name": "Wpisz prawidłową nazwę DNS.",
    email: "Nieprawidłowy adres e-mail",
    alphanumeric: "Używaj tylko liter i cyfr.",
    "kb-number": "Wpisz prawidłowy numer KB.",
    key32: "Wpisz 32-znakowy klucz złożony z liter i cyfr.",
    oid: "Wpisz prawidłowy identyfikator OID zaczynający się od kropki.",
    "decimal-or-fraction": "Wpisz liczbę dziesiętną lub ułamek.",
    "wildcard-item": "Wpisz co najmniej 3 znaki z symbolem wieloznacznym (*) na początku lub na końcu.",
    "mfa-code": "Nieprawidłowy kod"
  }
};
