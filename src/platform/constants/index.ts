export * from './statusColors';
export * from './deviceTypes';
export * from './deviceRoles';
export * from './knownFolders';
export * from './approval';
export * from './limits';
