/** Validation texts, ja-jp. The Front Door app's locales/ja-jp/validation.json holds the same. */
import type { ValidationTexts } from '../messages.js';

export const texts: ValidationTexts = {
  required: "必須",
  invalid: "無効です",
  email: "メールアドレスが無効です",
  password: "パスワードは (8) ～ (72) 文字で、小文字、大文字、特殊文字、数字のうち 3 種類以上を含める必要があります。",
  passwordsDoNotMatch: "パスワードが一致しません",
  mfaCode: "コードが無効です",
  minLength: "{{minCount}} 文字以上で入力してください。",
  maxLength: "最大文字数（{{maxCount}}）を超えています。",
  minItems: "{{minCount}} 個以上選択してください。",
  maxItems: "最大項目数（{{maxCount}}）を超えています。",
  minimum: "{{limit}} 以上の値を入力してください。",
  maximum: "{{limit}} 以下の値を入力してください。",
  integerRange: "{{min}} ～ {{max}} の整数を入力してください。",
  inUse: "この値はすでに使用されています。",
  emailInUse: "このメールアドレスはすでに登録されています。",
  format: {
    ipv4: "有効な IPv4 アドレスを入力してください。",
    ipv6: "有効な IPv6 アドレスを入力してください。",
    ip: "有効な IP アドレスを入力してください。",
    cidr: "有効な CIDR ブロックを入力してください（例: 10.0.0.0/8）。",
    "ip-range": "有効な IP 範囲を入力してください（開始-終了、開始は終了より後にできません）。",
    url: "有効な URL を入力してください。",
    "secure-url": "有効な https:// の URL を入力してください。",
    uri: "有効な URI を入力してください。",
    "windows-path": "有効な Windows のパスを入力してください。",
    "mac-path": "有効な Mac のパスを入力してください。",
    "unc-path": "有効な UNC パスを入力してください。",
    hostname: "有効なホスト名を入力してください。",
    "dns-name": "有効な DNS 名を入力してください。",
    email: "メールアドレスが無効です",
    alphanumeric: "英字と数字のみを使用してください。",
    "kb-number": "有効な KB 番号を入力してください。",
    key32: "英数字 32 文字のキーを入力してください。",
    oid: "ピリオドで始まる有効な OID を入力してください。",
    "decimal-or-fraction": "小数または分数を入力してください。",
    "wildcard-item": "先頭または末尾にワイルドカード（*）を付けて 3 文字以上入力してください。",
    "mfa-code": "コードが無効です"
  }
};
