export * from './group.js';
export * from './spec.js';
export * from './status.js';
export * from './resource.js';
