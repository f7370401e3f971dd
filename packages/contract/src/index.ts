export * from './constants';
export * from './envelope';
export * from './validation';
export * from './i18n/lang';
export * from './i18n/messages';
export * from './api/uaa';
export * from './api/account';
export * from './api/notification';
