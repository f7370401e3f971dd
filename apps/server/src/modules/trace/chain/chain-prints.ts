import { isoInTimeZone, type Lang } from '@shuili/contract';
import type { TraceCertificateInput, TraceLabelSheetInput } from '../labels/trace-labels';
import type { ChainRead } from './chain-view';

/**
 * What a package batch's label sheet and compliance certificate print (../labels/trace-labels.ts),
 * from its chain: the product, producer and origin of the first harvest batch it comes from (as
 * the public page shows them), in the producer's certificate language.
 */

const quantity = (value: number) => String(Math.round(value * 1000) / 1000);

function printedOf(read: ChainRead, packageId: string) {
  const pkg = read.view.packages.find((one) => one.id === packageId);
  const origin = read.origins[0];
  if (!pkg || !origin) return undefined;
  const lang: Lang = origin.cert_language;
  const source = pkg.processId
    ? read.view.processes.find((one) => one.id === pkg.processId)?.processNo
    : read.view.harvests.find((one) => one.id === pkg.harvestId)?.batchNo;
  return { pkg, origin, lang, lot: pkg.lot ?? source ?? pkg.traceCode };
}

export function labelSheetOf(
  read: ChainRead,
  packageId: string,
  origin: string,
  copies: number | undefined,
): TraceLabelSheetInput | undefined {
  const printed = printedOf(read, packageId);
  if (!printed) return undefined;
  const { pkg, lang, lot } = printed;
  return {
    lang,
    origin,
    copies,
    label: {
      traceCode: pkg.traceCode,
      product: `${printed.origin.crop_name} · ${printed.origin.variety}`,
      lot,
      ...(pkg.digitalLink ? { digitalLink: pkg.digitalLink } : {}),
      netContent: `${quantity(pkg.netQuantity)} ${pkg.unit}`,
      producer: printed.origin.producer_name,
    },
  };
}

export function certificateOf(
  read: ChainRead,
  packageId: string,
  origin: string,
  now: Date = new Date(),
): TraceCertificateInput | undefined {
  const printed = printedOf(read, packageId);
  if (!printed) return undefined;
  const { pkg, lang, lot } = printed;
  const from = printed.origin;
  const product =
    lang === 'en' ? `${from.crop_name} (${from.variety})` : `${from.crop_name}（${from.variety}）`;
  const present = (value: string | null) => (value ? value : undefined);
  return {
    lang,
    origin,
    traceCode: pkg.traceCode,
    product,
    quantity: pkg.packageCount * pkg.netQuantity,
    unit: pkg.unit,
    packageCount: pkg.packageCount,
    lot,
    producer: {
      name: from.producer_name,
      code: from.producer_code,
      contact: present(from.contact),
      phone: present(from.phone),
      address: present(from.producer_address),
      commitment: present(from.commitment),
    },
    // Village level, as the public page shows the origin.
    placeOfOrigin:
      lang === 'en' ? `${from.village}, ${from.base_name}` : `${from.village} ${from.base_name}`,
    issuedOn: isoInTimeZone(now, read.timeZone).slice(0, 10),
    ...(pkg.digitalLink ? { digitalLink: pkg.digitalLink } : {}),
  };
}
