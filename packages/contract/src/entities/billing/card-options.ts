import { label } from '../../entity-kit/label';

/** Kinds of IC card a service desk issues (RESEARCH.md "Card-swipe"). */
export const CARD_TYPES = [
  { value: 'user', label: label('User card', '用户卡', '用戶卡') },
  { value: 'setting', label: label('Setting card', '设置卡', '設置卡') },
  { value: 'test', label: label('Test card (cumulative)', '测试卡(累加)', '測試卡(累加)') },
  { value: 'clearing', label: label('Clearing card', '清零卡', '清零卡') },
] as const;
export type CardType = (typeof CARD_TYPES)[number]['value'];

/**
 * Where a card is in its life: registered (issued, not yet bound), bound to a household, lost
 * (refused at every controller), replaced (by a newer card carrying its balance), cancelled
 * (reclaimed). Only the lifecycle calls move it; forms show it read-only.
 */
export const CARD_STATES = [
  { value: 'registered', label: label('Registered', '已登记', '已登記') },
  { value: 'bound', label: label('Bound', '已绑定', '已綁定') },
  { value: 'lost', label: label('Reported lost', '已挂失', '已掛失') },
  { value: 'replaced', label: label('Replaced', '已补卡', '已補卡') },
  { value: 'cancelled', label: label('Cancelled', '已注销', '已註銷') },
] as const;
export type CardState = (typeof CARD_STATES)[number]['value'];

/** A card's UID as readers give it: 8 to 20 hexadecimal digits (4- and 7-byte UIDs, more). */
export const CARD_NO_PATTERN = { source: '^[0-9A-Fa-f]{8,20}$', key: 'validation.cardNo' };
