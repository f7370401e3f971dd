export * from './job-options';
export * from './job-targets';
export * from './job-info.entity';
export * from './job-instance.entity';
export * from './workflow.entity';
