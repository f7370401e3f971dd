export * from './cron';
export * from './workflow-dag';
export * from './job-processors';
export * from './job-calls';
