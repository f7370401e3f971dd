export * from './camera.entity';
