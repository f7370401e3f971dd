import type { Lang } from './lang';

/**
 * Server messages of the billing set-up screens (households, cards, prices, water rights), kept
 * apart so the billing helpers do not all edit one table; messages.ts spreads them in.
 */
export const BILLING_SETUP_MESSAGES: Record<Lang, Record<string, string>> = {
  en: {
    'validation.idNumber':
      '{field}: not a valid resident ID number (18 characters, a real birth date and the right check digit)',
    'validation.cardNo': '{field}: 8 to 20 hexadecimal digits (0-9, A-F)',
    'billing.notCardController': '{field}: the device is not a card-swipe well controller',
    'billing.tierBoundTwice': '{field}: the class already has a tier up to {bound}',
    'billing.tierOpenTwice': '{field}: the class already has a tier without upper bound',
    'billing.tierBelowLower':
      '{field}: {multiplier}× is below the {lower}× of the tier under it (up to {bound}); multipliers may not decrease',
    'billing.tierAboveUpper':
      '{field}: {multiplier}× is above the {upper}× of the tier over it (up to {bound}); multipliers may not decrease',
    'billing.priceNeeded': '{field} is needed for the billing mode {mode}',
    'billing.coefficientDateTaken': '{field}: the well already has a coefficient from {from}',
    'billing.coefficientMismatch':
      '{field}: the measured {volume} m³ over {energy} kWh give {expected} m³/kWh',
    'billing.cardTypeNoHousehold': '{field}: only user cards belong to a household',
    'billing.householdDisabled': '{field}: the household is disabled',
    'billing.cardStateFixed':
      '{field}: the card is lost, replaced or cancelled; its household no longer changes here',
    'billing.cardNoFixed':
      '{field}: the card is lost, replaced or cancelled; its number no longer changes (controllers refuse it by number)',
    'billing.cardBoundMove':
      '{field}: the card is bound and carries its household’s balance; cancel and reclaim it at the desk before it serves another household',
    'billing.noPriceClass': 'Household {household} has no crop class with a quota',
  },
  zh: {
    'validation.idNumber': '{field}：不是有效的身份证号（18位、出生日期有效、校验码正确）',
    'validation.cardNo': '{field}：应为8至20位十六进制字符（0-9、A-F）',
    'billing.notCardController': '{field}：该设备不是刷卡机井控制器',
    'billing.tierBoundTwice': '{field}：该类别已有上限为{bound}的阶梯',
    'billing.tierOpenTwice': '{field}：该类别已有无上限的阶梯',
    'billing.tierBelowLower':
      '{field}：{multiplier}倍低于下一级阶梯（上限{bound}）的{lower}倍，倍数不得递减',
    'billing.tierAboveUpper':
      '{field}：{multiplier}倍高于上一级阶梯（上限{bound}）的{upper}倍，倍数不得递减',
    'billing.priceNeeded': '计费方式为{mode}时必须填写{field}',
    'billing.coefficientDateTaken': '{field}：该机井已有自{from}起生效的系数',
    'billing.coefficientMismatch':
      '{field}：率定水量{volume} m³ / 电量{energy} kWh 得{expected} m³/kWh',
    'billing.cardTypeNoHousehold': '{field}：只有用户卡可以属于用卡户',
    'billing.householdDisabled': '{field}：该用卡户已停用',
    'billing.cardStateFixed': '{field}：该卡已挂失、补卡或注销，不能在此更改用卡户',
    'billing.cardNoFixed': '{field}：该卡已挂失、补卡或注销，卡号不能再更改（控制器按卡号拒绝它）',
    'billing.cardBoundMove':
      '{field}：该卡已绑定并存有本户余额，请先在服务台注销回收，再发给其他用卡户',
    'billing.noPriceClass': '用卡户{household}没有带定额的作物类别',
  },
  tw: {
    'validation.idNumber': '{field}：不是有效的身分證號（18位、出生日期有效、檢查碼正確）',
    'validation.cardNo': '{field}：應為8至20位十六進位字元（0-9、A-F）',
    'billing.notCardController': '{field}：該設備不是刷卡機井控制器',
    'billing.tierBoundTwice': '{field}：該類別已有上限為{bound}的階梯',
    'billing.tierOpenTwice': '{field}：該類別已有無上限的階梯',
    'billing.tierBelowLower':
      '{field}：{multiplier}倍低於下一級階梯（上限{bound}）的{lower}倍，倍數不得遞減',
    'billing.tierAboveUpper':
      '{field}：{multiplier}倍高於上一級階梯（上限{bound}）的{upper}倍，倍數不得遞減',
    'billing.priceNeeded': '計費方式為{mode}時必須填寫{field}',
    'billing.coefficientDateTaken': '{field}：該機井已有自{from}起生效的係數',
    'billing.coefficientMismatch':
      '{field}：率定水量{volume} m³ / 電量{energy} kWh 得{expected} m³/kWh',
    'billing.cardTypeNoHousehold': '{field}：只有用戶卡可以屬於用卡戶',
    'billing.householdDisabled': '{field}：該用卡戶已停用',
    'billing.cardStateFixed': '{field}：該卡已掛失、補卡或註銷，不能在此更改用卡戶',
    'billing.cardNoFixed': '{field}：該卡已掛失、補卡或註銷，卡號不能再更改（控制器按卡號拒絕它）',
    'billing.cardBoundMove':
      '{field}：該卡已綁定並存有本戶餘額，請先在服務台註銷回收，再發給其他用卡戶',
    'billing.noPriceClass': '用卡戶{household}沒有帶定額的作物類別',
  },
};
