/** Validation texts, pt-br. The Front Door app's locales/pt-br/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "Obrigatório",
  invalid: "Inválido",
  email: "Endereço de e-mail inválido",
  password: "A senha deve ter entre (8) e (72) caracteres e atender a 3 dos seguintes critérios: letra minúscula, letra maiúscula, caractere especial, número.",
  passwordsDoNotMatch: "As senhas não coincidem",
  mfaCode: "Código inválido",
  minLength: "O campo deve conter pelo menos {{minCount}} caracteres.",
  maxLength: "O campo excede o número máximo de {{maxCount}} caracteres.",
  minItems: "Selecione pelo menos {{minCount}} itens.",
  maxItems: "O campo excede o número máximo de {{maxCount}} itens.",
  minimum: "O valor deve ser no mínimo {{limit}}.",
  maximum: "O valor deve ser no máximo {{limit}}.",
  integerRange: "Digite um número inteiro de {{min}} a {{max}}.",
  inUse: "Este valor já está em uso.",
  emailInUse: "Este endereço de e-mail já está cadastrado.",
  format: {
    ipv4: "Digite um endereço IPv4 válido.",
    ipv6: "Digite um endereço IPv6 válido.",
    ip: "Digite um endereço IP válido.",
    cidr: "Digite um bloco CIDR válido, por exemplo 10.0.0.0/8.",
    "ip-range": "Digite um intervalo de IP válido (início-fim, o início não pode ser depois do fim).",
    url: "Digite uma URL válida.",
    "secure-url": "Digite uma URL https:// válida.",
    uri: "Insira um URI válido.",
    "windows-path": "Digite um caminho do Windows válido.",
    "mac-path": "Digite um caminho do Mac válido.",
    "unc-path": "Digite um caminho UNC válido.",
    hostname: "Digite um nome de host válido.",
    "dns-name": "Digite um nome DNS válido.",
    email: "Endereço de e-mail inválido",
    alphanumeric: "Use apenas letras e números.",
    "kb-number": "Digite um número KB válido.",
    key32: "Digite uma chave de 32 caracteres com letras e números.",
    oid: "Digite um OID válido que comece com um ponto.",
    "decimal-or-fraction": "Digite um número decimal ou uma fração.",
    "wildcard-item": "Digite pelo menos 3 caracteres com um curinga (*) no início ou no fim.",
    "mfa-code": "Código inválido"
  }
};
