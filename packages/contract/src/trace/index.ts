export * from './gs1';
export * from './trace-code';
export * from './epcis';
export * from './plot-area';
