export * from './area-kit';
export * from './areas';
export * from './area-screen-icons';
export * from './area-settings';
export * from './weather/et0';
