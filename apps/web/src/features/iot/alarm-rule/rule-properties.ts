import { PRODUCT_TARGET, type ThingModel, type ThingProperty } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import type { LabeledValue } from '../../../resource/form-values';
import { searchRefs } from '../../../resource/resource-api';
import { deviceApi } from '../device/device-api';
import { fetchThingModel } from '../product/thing-model-api';

/** The thing model of a rule's scope: its device's product when it names a device. */
async function thingModelOf(
  product: LabeledValue | undefined,
  device: LabeledValue | undefined,
  signal: AbortSignal,
): Promise<ThingModel | undefined> {
  if (device) return (await deviceApi.detail(device.value, signal)).thingModel;
  if (!product) return undefined;
  // The thing model is read by serial number; the product select knows the id and name.
  const found = await searchRefs(PRODUCT_TARGET, product.label, signal);
  const row = found.list.find((candidate) => candidate.id === product.value);
  return row ? (await fetchThingModel(String(row.serialNo), signal)).thingModel : undefined;
}

/**
 * The properties an alarm rule may watch: the measured (non-text) ones of the product's thing
 * model, as the server checks them (alarm-rule.hooks.ts). Undefined until a scope is chosen.
 */
export function useRuleProperties(
  product: LabeledValue | undefined,
  device: LabeledValue | undefined,
) {
  return useQuery({
    queryKey: ['alarm-rule-properties', product?.value, device?.value],
    queryFn: async ({ signal }): Promise<ThingProperty[]> =>
      ((await thingModelOf(product, device, signal))?.properties ?? []).filter(
        (property) => property.type !== 'string',
      ),
    enabled: !!(product || device),
  });
}
