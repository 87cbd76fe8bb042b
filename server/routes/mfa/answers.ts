/** The answers the MFA routes share. */
export const INVALID_LOGIN_TOKEN = { resultCode: 'INVALID_LOGIN_TOKEN' } as const;
export const INVALID_USER_TOKEN = { resultCode: 'INVALID_USER_TOKEN' } as const;
export const INVALID_MFA_CODE = { resultCode: 'INVALID_MFA_CODE' } as const;
