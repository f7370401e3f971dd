import { PRODUCTS, parseDeviceIdentity, type ThingModel } from '@shuili/contract';
import { isDeviceKind, type DeviceKind } from './models/create-physics-model';

/**
 * The kind and seeded thing model of a device from its number: demo devices are numbered
 * `{serialNo}-{nn}` after their product (IRR-VALVE-4-01). Undefined when no product matches.
 */
export function productOfDevice(
  identity: string,
): { kind: DeviceKind; thingModel: ThingModel } | undefined {
  const deviceNo = parseDeviceIdentity(identity)?.deviceNo ?? identity;
  const product = [...PRODUCTS]
    .sort((a, b) => b.serialNo.length - a.serialNo.length)
    .find((candidate) => deviceNo.startsWith(`${candidate.serialNo}-`));
  if (!product || !isDeviceKind(product.kind)) return undefined;
  return { kind: product.kind, thingModel: product.thingModel };
}
