export * from './flags';
export * from './useFeatureFlag';
