export * from './thing-model';
export * from './command-check';
export * from './tile-actions';
export * from './topics';
export * from './payloads';
export * from './factors';
export * from './products';
