/** Validation texts, he. Written for this package; the app gains this language later (its locale file must then hold the same). */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "שדה חובה",
  invalid: "לא תקין",
  email: "כתובת דוא״ל לא תקינה",
  password: "הסיסמה חייבת להכיל בין (8) ל-(72) תווים ולעמוד ב-3 מהקריטריונים הבאים: אות קטנה, אות גדולה, תו מיוחד, ספרה.",
  passwordsDoNotMatch: "הסיסמאות אינן תואמות",
  mfaCode: "קוד לא תקין",
  minLength: "השדה חייב להכיל לפחות {{minCount}} תווים.",
  maxLength: "השדה חורג ממספר התווים המרבי, {{maxCount}}.",
  minItems: "יש לבחור לפחות {{minCount}} פריטים.",
  maxItems: "השדה חורג ממספר הפריטים המרבי, {{maxCount}}.",
  minimum: "הערך חייב להיות לפחות {{limit}}.",
  maximum: "הערך חייב להיות לכל היותר {{limit}}.",
  integerRange: "יש להזין מספר שלם מ-{{min}} עד {{max}}.",
  inUse: "ערך זה כבר נמצא בשימוש.",
  emailInUse: "כתובת הדוא״ל הזו כבר רשומה.",
  format: {
    ipv4: "יש להזין כתובת IPv4 תקינה.",
    ipv6: "יש להזין כתובת IPv6 תקינה.",
    ip: "יש להזין כתובת IP תקינה.",
    cidr: "יש להזין בלוק CIDR תקין, לדוגמה 10.0.0.0/8.",
    "ip-range": "יש להזין טווח IP תקין (התחלה-סוף, ההתחלה לא אחרי הסוף).",
    url: "יש להזין כתובת URL תקינה.",
    "secure-url": "יש להזין כתובת https:// תקינה.",
    uri: "יש להזין URI תקין.",
    "windows-path": "יש להזין נתיב Windows תקין.",
    "mac-path": "יש להזין נתיב Mac תקין.",
    "unc-path": "יש להזין נתיב UNC תקין.",
    hostname: "יש להזין שם מארח תקין.",
    "dns-name": "יש להזין שם DNS תקין.",
    email: "כתובת דוא״ל לא תקינה",
    alphanumeric: "יש להשתמש באותיות ובספרות בלבד.",
    "kb-number": "יש להזין מספר KB תקין.",
    key32: "יש להזין מפתח בן 32 תווים של אותיות וספרות.",
    oid: "יש להזין OID תקין שמתחיל בנקודה.",
    "decimal-or-fraction": "יש להזין מספר עשרוני או שבר.",
    "wildcard-item": "יש להזין לפחות 3 תווים עם תו כללי (*) בהתחלה או בסוף.",
    "mfa-code": "קוד לא תקין"
  }
};
