/** Validation texts, es-es. The Front Door app's locales/es-es/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Obligatorio",
  invalid: "No válido",
  email: "Dirección de correo electrónico no válida",
  password: "La contraseña debe tener entre (8) y (72) caracteres y cumplir 3 de los siguientes criterios: letra minúscula, letra mayúscula, carácter especial, número.",
  passwordsDoNotMatch: "Las contraseñas no coinciden",
  mfaCode: "Código no válido",
  minLength: "El campo debe contener al menos {{minCount}} caracteres.",
  maxLength: "El campo supera el número máximo de {{maxCount}} caracteres.",
  minItems: "Seleccione al menos {{minCount}} elementos.",
  maxItems: "El campo supera el número máximo de {{maxCount}} elementos.",
  minimum: "El valor debe ser como mínimo {{limit}}.",
  maximum: "El valor debe ser como máximo {{limit}}.",
  integerRange: "Introduzca un número entero entre {{min}} y {{max}}.",
  inUse: "Este valor ya está en uso.",
  emailInUse: "Esta dirección de correo electrónico ya está registrada.",
  format: {
    ipv4: "Introduzca una dirección IPv4 válida.",
    ipv6: "Introduzca una dirección IPv6 válida.",
    ip: "Introduzca una dirección IP válida.",
    cidr: "Introduzca un bloque CIDR válido, p. ej., 10.0.0.0/8.",
    "ip-range": "Introduzca un rango de IP válido (inicio-fin, el inicio no puede ser posterior al fin).",
    url: "Introduzca una URL válida.",
    "secure-url": "Introduzca una URL https:// válida.",
    uri: "Introduzca un URI válido.",
    "windows-path": "Introduzca una ruta de Windows válida.",
    "mac-path": "Introduzca una ruta de Mac válida.",
    "unc-path": "Introduzca una ruta UNC válida.",
    hostname: "Introduzca un nombre de host válido.",
    "dns-name": "Introduzca un nombre DNS válido.",
    email: "Dirección de correo electrónico no válida",
    alphanumeric: "Use solo letras y números.",
    "kb-number": "Introduzca un número KB válido.",
    key32: "Introduzca una clave de 32 caracteres con letras y números.",
    oid: "Introduzca un OID válido que empiece por un punto.",
    "decimal-or-fraction": "Introduzca un número decimal o una fracción.",
    "wildcard-item": "Introduzca al menos 3 caracteres con un comodín (*) al principio o al final.",
    "mfa-code": "Código no válido"
  }
};
