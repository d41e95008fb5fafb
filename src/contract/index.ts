export * from './enums.js';
export * from './errors.js';
export * from './resources.js';
export * from './proxy-api.js';
export * from './catalog.js';
