import type { Lang } from './lang';

/**
 * Server messages of the card controllers' sessions (billing/sessions), kept apart so the
 * billing helpers do not all edit one table; messages.ts spreads them in.
 */
export const BILLING_SESSION_MESSAGES: Record<Lang, Record<string, string>> = {
  en: {
    'billing.sessionCommandOnly':
      '{command} is sent by the server when a card is swiped; it cannot be sent by hand',
  },
  zh: {
    'billing.sessionCommandOnly': '{command} 由服务器在刷卡时下发，不能手动发送',
  },
  tw: {
    'billing.sessionCommandOnly': '{command} 由伺服器在刷卡時下發，不能手動發送',
  },
};
