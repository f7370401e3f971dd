export * from './fertigation-targets';
export * from './fertilizer-recipe.entity';
export * from './fertigation-program.entity';
export * from './irrigation-targets';
export * from './valve-group.entity';
export * from './rotation-schedule.entity';
export * from './soil-moisture-rule.entity';
