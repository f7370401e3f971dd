import type { Lang } from '@shuili/contract';

/** What a commitment rests on (承诺依据), as the national certificate template lists it. */
export const TRACE_COMMITMENT_BASES = [
  'entrustedTest',
  'selfTest',
  'internalControl',
  'selfCommitment',
] as const;
export type TraceCommitmentBasis = (typeof TRACE_COMMITMENT_BASES)[number];

export interface TraceLabelTexts {
  labelsTitle: string;
  certificateTitle: string;
  lot: string;
  traceCode: string;
  scanToTrace: string;
  product: string;
  quantity: string;
  quantityWithPackages: (packages: number, total: string) => string;
  producer: string;
  producerCode: string;
  contact: string;
  address: string;
  origin: string;
  issuedOn: string;
  colon: string;
  commitmentLead: string;
  commitments: string[];
  basisLead: string;
  basis: Record<TraceCommitmentBasis, string>;
  signature: string;
}

/**
 * The printed words of labels and certificate. The certificate follows the national template of
 * the 承诺达标合格证 (product, quantity or weight, producer and contact, origin, date of issue;
 * the producer's commitment and what it rests on; signature or seal).
 */
const TEXTS: Record<Lang, TraceLabelTexts> = {
  zh: {
    labelsTitle: '追溯标签',
    certificateTitle: '承诺达标合格证',
    lot: '批号',
    traceCode: '追溯码',
    scanToTrace: '扫码查看追溯信息',
    product: '食用农产品名称',
    quantity: '数量（重量）',
    quantityWithPackages: (packages, total) => `${packages} 件，共 ${total}`,
    producer: '生产者',
    producerCode: '代码',
    contact: '联系方式',
    address: '地址',
    origin: '产地',
    issuedOn: '开具日期',
    colon: '：',
    commitmentLead: '我承诺对生产销售的食用农产品：',
    commitments: [
      '不使用禁用农药兽药、停用兽药和非法添加物',
      '遵守农药安全间隔期、兽药休药期规定',
      '常规农药兽药残留不超标',
      '对承诺的真实性负责',
    ],
    basisLead: '承诺依据',
    basis: {
      entrustedTest: '委托检测',
      selfTest: '自我检测',
      internalControl: '内部质量控制',
      selfCommitment: '自我承诺',
    },
    signature: '生产者签名（盖章）',
  },
  tw: {
    labelsTitle: '追溯標籤',
    certificateTitle: '承諾達標合格證',
    lot: '批號',
    traceCode: '追溯碼',
    scanToTrace: '掃碼查看追溯資訊',
    product: '食用農產品名稱',
    quantity: '數量（重量）',
    quantityWithPackages: (packages, total) => `${packages} 件，共 ${total}`,
    producer: '生產者',
    producerCode: '代碼',
    contact: '聯絡方式',
    address: '地址',
    origin: '產地',
    issuedOn: '開具日期',
    colon: '：',
    commitmentLead: '我承諾對生產銷售的食用農產品：',
    commitments: [
      '不使用禁用農藥獸藥、停用獸藥和非法添加物',
      '遵守農藥安全間隔期、獸藥休藥期規定',
      '常規農藥獸藥殘留不超標',
      '對承諾的真實性負責',
    ],
    basisLead: '承諾依據',
    basis: {
      entrustedTest: '委託檢測',
      selfTest: '自我檢測',
      internalControl: '內部品質控制',
      selfCommitment: '自我承諾',
    },
    signature: '生產者簽名（蓋章）',
  },
  en: {
    labelsTitle: 'Trace labels',
    certificateTitle: 'Certificate of Compliance',
    lot: 'Batch',
    traceCode: 'Trace code',
    scanToTrace: 'Scan to trace this batch',
    product: 'Product',
    quantity: 'Quantity (weight)',
    quantityWithPackages: (packages, total) => `${packages} packages, ${total} in all`,
    producer: 'Producer',
    producerCode: 'code',
    contact: 'Contact',
    address: 'Address',
    origin: 'Origin',
    issuedOn: 'Date of issue',
    colon: ': ',
    commitmentLead: 'For the edible farm produce I produce and sell, I commit that:',
    commitments: [
      'no banned pesticides or veterinary drugs, nor illegal additives, are used',
      'pre-harvest and withdrawal intervals are respected',
      'pesticide and veterinary drug residues are within limits',
      'I answer for the truth of this commitment',
    ],
    basisLead: 'Based on',
    basis: {
      entrustedTest: 'laboratory test',
      selfTest: 'own test',
      internalControl: 'internal quality control',
      selfCommitment: 'own commitment',
    },
    signature: 'Producer signature (seal)',
  },
};

export function labelTexts(lang: Lang): TraceLabelTexts {
  return TEXTS[lang];
}
