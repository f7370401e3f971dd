export * from './thing-model';
export * from './topics';
export * from './payloads';
