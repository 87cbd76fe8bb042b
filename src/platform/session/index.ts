export * from './session';
export * from './useSession';
