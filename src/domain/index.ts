export * from './cancel-signal.js';
export * from './errors.js';
export * from './naming.js';
export * from './server-definition.js';
export * from './capability.js';
export * from './ports.js';
