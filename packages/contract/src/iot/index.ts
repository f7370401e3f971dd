export * from './thing-model';
export * from './topics';
export * from './payloads';
export * from './factors';
export * from './products';
