export * from './errorReportingState';
export * from './useErrorReportingState';
