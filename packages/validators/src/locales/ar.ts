/** Validation texts, ar. Written for this package; the app gains this language later (its locale file must then hold the same). */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "مطلوب",
  invalid: "غير صالح",
  email: "عنوان بريد إلكتروني غير صالح",
  password: "يجب أن تتكون كلمة المرور من (8) إلى (72) حرفًا وأن تستوفي 3 من المعايير التالية: حرف صغير، حرف كبير، رمز خاص، رقم.",
  passwordsDoNotMatch: "كلمتا المرور غير متطابقتين",
  mfaCode: "رمز غير صالح",
  minLength: "يجب أن يحتوي الحقل على {{minCount}} حرفًا على الأقل.",
  maxLength: "يتجاوز الحقل الحد الأقصى لعدد الأحرف وهو {{maxCount}}.",
  minItems: "اختر {{minCount}} عناصر على الأقل.",
  maxItems: "يتجاوز الحقل الحد الأقصى لعدد العناصر وهو {{maxCount}}.",
  minimum: "يجب ألا تقل القيمة عن {{limit}}.",
  maximum: "يجب ألا تزيد القيمة على {{limit}}.",
  integerRange: "أدخل عددًا صحيحًا من {{min}} إلى {{max}}.",
  inUse: "هذه القيمة مستخدمة بالفعل.",
  emailInUse: "عنوان البريد الإلكتروني هذا مسجل بالفعل.",
  format: {
    ipv4: "أدخل عنوان IPv4 صالحًا.",
    ipv6: "أدخل عنوان IPv6 صالحًا.",
    ip: "أدخل عنوان IP صالحًا.",
    cidr: "أدخل كتلة CIDR صالحة، مثل 10.0.0.0/8.",
    "ip-range": "أدخل نطاق IP صالحًا (البداية-النهاية، ولا تكون البداية بعد النهاية).",
    url: "أدخل عنوان URL صالحًا.",
    "secure-url": "أدخل عنوان URL صالحًا يبدأ بـ https://.",
    uri: "أدخل معرّف URI صالحًا.",
    "windows-path": "أدخل مسار Windows صالحًا.",
    "mac-path": "أدخل مسار Mac صالحًا.",
    "unc-path": "أدخل مسار UNC صالحًا.",
    hostname: "أدخل اسم مضيف صالحًا.",
    "dns-name": "أدخل اسم DNS صالحًا.",
    email: "عنوان بريد إلكتروني غير صالح",
    alphanumeric: "استخدم الحروف والأرقام فقط.",
    "kb-number": "أدخل رقم KB صالحًا.",
    key32: "أدخل مفتاحًا من 32 حرفًا يتكون من حروف وأرقام.",
    oid: "أدخل معرّف OID صالحًا يبدأ بنقطة.",
    "decimal-or-fraction": "أدخل عددًا عشريًا أو كسرًا.",
    "wildcard-item": "أدخل 3 أحرف على الأقل مع حرف بدل (*) في البداية أو النهاية.",
    "mfa-code": "رمز غير صالح"
  }
};
