import type { Lang } from './lang';

/**
 * Server messages of the service desk (card lifecycle and card writes), kept apart so the billing
 * helpers do not all edit one table; messages.ts spreads them in.
 */
export const BILLING_DESK_MESSAGES: Record<Lang, Record<string, string>> = {
  en: {
    'billing.cardUnknown': '{field}: there is no card {cardNo}',
    'billing.cardNotUserCard': '{field}: card {cardNo} is not a user card',
    'billing.cardOfAnotherHousehold': '{field}: card {cardNo} belongs to another household',
    'billing.cardState.registered': '{field}: card {cardNo} is not bound to a household yet',
    'billing.cardState.bound': '{field}: card {cardNo} is already bound to a household',
    'billing.cardState.lost': '{field}: card {cardNo} is reported lost',
    'billing.cardState.replaced': '{field}: card {cardNo} has been replaced by a new card',
    'billing.cardState.cancelled': '{field}: card {cardNo} is cancelled',
    'billing.cardNotLost': '{field}: card {cardNo} is not reported lost; report it lost first',
    'billing.replaceSameCard': '{field}: the new card must be another card than the lost one',
    'billing.cardSessionRunning':
      '{field}: a session of the household holds {held} yuan; reclaim the card after it ends',
    'billing.cardWriteMissing': '{field}: there is no such card write',
    'billing.cardWriteNoTxn': '{field}: a replacement card write has no transaction to reverse',
    'billing.cardWriteReversed':
      '{field}: the transaction of this write to card {cardNo} was reversed; read the card again',
    'billing.cardWrite.written': '{field}: card {cardNo} already holds this write',
    'billing.cardWrite.superseded':
      '{field}: a newer write of card {cardNo} replaced this one; read the card again',
    'billing.cardPurseFull':
      '{field}: card {cardNo} would hold more than the {max} yuan a card can carry',
    'billing.onlineRefTaken': '{field}: payment {ref} has already been recharged',
    'billing.refundAtDesk':
      '{field}: the household uses card {cardNo}; refund it at the desk, which writes the card',
  },
  zh: {
    'billing.cardUnknown': '{field}：没有卡号为 {cardNo} 的卡',
    'billing.cardNotUserCard': '{field}：卡 {cardNo} 不是用户卡',
    'billing.cardOfAnotherHousehold': '{field}：卡 {cardNo} 属于另一个用卡户',
    'billing.cardState.registered': '{field}：卡 {cardNo} 尚未绑定用卡户',
    'billing.cardState.bound': '{field}：卡 {cardNo} 已绑定用卡户',
    'billing.cardState.lost': '{field}：卡 {cardNo} 已挂失',
    'billing.cardState.replaced': '{field}：卡 {cardNo} 已补办新卡',
    'billing.cardState.cancelled': '{field}：卡 {cardNo} 已注销',
    'billing.cardNotLost': '{field}：卡 {cardNo} 未挂失，请先挂失',
    'billing.replaceSameCard': '{field}：新卡不能与挂失卡相同',
    'billing.cardSessionRunning': '{field}：该户有正在进行的用水冻结 {held} 元，结束后再销卡',
    'billing.cardWriteMissing': '{field}：没有这条写卡记录',
    'billing.cardWriteNoTxn': '{field}：补卡的写卡记录没有可冲正的交易',
    'billing.cardWriteReversed': '{field}：卡 {cardNo} 这次写卡的交易已冲正，请重新读卡',
    'billing.cardWrite.written': '{field}：卡 {cardNo} 已写入这条记录',
    'billing.cardWrite.superseded': '{field}：卡 {cardNo} 有更新的写卡记录取代了这条，请重新读卡',
    'billing.cardPurseFull': '{field}：卡 {cardNo} 的余额将超过单卡最多可存的 {max} 元',
    'billing.onlineRefTaken': '{field}：支付 {ref} 已经充值过',
    'billing.refundAtDesk': '{field}：该户正在使用卡 {cardNo}，请在柜台退款并写卡',
  },
  tw: {
    'billing.cardUnknown': '{field}：沒有卡號為 {cardNo} 的卡',
    'billing.cardNotUserCard': '{field}：卡 {cardNo} 不是用戶卡',
    'billing.cardOfAnotherHousehold': '{field}：卡 {cardNo} 屬於另一個用卡戶',
    'billing.cardState.registered': '{field}：卡 {cardNo} 尚未綁定用卡戶',
    'billing.cardState.bound': '{field}：卡 {cardNo} 已綁定用卡戶',
    'billing.cardState.lost': '{field}：卡 {cardNo} 已掛失',
    'billing.cardState.replaced': '{field}：卡 {cardNo} 已補辦新卡',
    'billing.cardState.cancelled': '{field}：卡 {cardNo} 已註銷',
    'billing.cardNotLost': '{field}：卡 {cardNo} 未掛失，請先掛失',
    'billing.replaceSameCard': '{field}：新卡不能與掛失卡相同',
    'billing.cardSessionRunning': '{field}：該戶有正在進行的用水凍結 {held} 元，結束後再銷卡',
    'billing.cardWriteMissing': '{field}：沒有這條寫卡記錄',
    'billing.cardWriteNoTxn': '{field}：補卡的寫卡記錄沒有可沖正的交易',
    'billing.cardWriteReversed': '{field}：卡 {cardNo} 這次寫卡的交易已沖正，請重新讀卡',
    'billing.cardWrite.written': '{field}：卡 {cardNo} 已寫入這條記錄',
    'billing.cardWrite.superseded': '{field}：卡 {cardNo} 有更新的寫卡記錄取代了這條，請重新讀卡',
    'billing.cardPurseFull': '{field}：卡 {cardNo} 的餘額將超過單卡最多可存的 {max} 元',
    'billing.onlineRefTaken': '{field}：支付 {ref} 已經儲值過',
    'billing.refundAtDesk': '{field}：該戶正在使用卡 {cardNo}，請在櫃檯退款並寫卡',
  },
};
