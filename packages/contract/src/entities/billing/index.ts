export * from './billing-targets';
export * from './card-options';
export * from './household.entity';
export * from './card.entity';
export * from './price-class.entity';
export * from './water-right.entity';
