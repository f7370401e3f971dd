export * from './label';
export * from './fields';
export * from './define-entity';
export * from './schemas';
export * from './singular';
