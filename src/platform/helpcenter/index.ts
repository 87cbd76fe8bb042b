export * from './sso';
export * from './useHelpCenter';
