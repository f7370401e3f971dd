import { formatValveMember, type AreaDevicePage } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { irrigationValves } from './irrigation-api';

/** Each channel of each irrigation valve the caller sees, as a select option. */
export function channelOptions(page: AreaDevicePage | undefined, channelWord: string) {
  if (!page) return [];
  const channels = new Map(
    page.products.map((product) => [
      product.id,
      product.thingModel.commands
        .find((command) => command.key === 'openValve')
        ?.params.find((param) => param.key === 'channel')?.max ?? 0,
    ]),
  );
  return page.list.flatMap((device) =>
    Array.from({ length: channels.get(device.productId) ?? 0 }, (_, index) => ({
      value: formatValveMember({ deviceId: device.id, channel: index + 1 }),
      label: `${device.deviceName} (${device.deviceNo}) ${channelWord} ${index + 1}`,
    })),
  );
}

/**
 * A valve group's members: channels of irrigation valves, picked by typing a device's name or
 * number (every channel of every valve in the caller's zones is an option). Stored as
 * `<deviceId>:<channel>`; the server checks each again when the group is saved.
 */
export function ValveMembersSelect({
  value,
  onChange,
  id,
}: {
  value?: string[];
  onChange?: (value: string[]) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const valves = useQuery({
    queryKey: ['monitor', 'irrigationValveOptions'],
    queryFn: ({ signal }) => irrigationValves(signal),
    staleTime: 60_000,
  });
  const options = channelOptions(valves.data, t('monitor.irrigation.channel'));
  // A member no longer offered (a valve out of the caller's zones) still shows, by its value.
  const known = new Set(options.map((option) => option.value));
  const extra = (value ?? [])
    .filter((member) => !known.has(member))
    .map((member) => ({ value: member, label: member }));
  return (
    <Select<string[]>
      id={id}
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      value={value ?? []}
      onChange={(next) => onChange?.(next)}
      notFoundContent={valves.isFetching ? <Spin size="small" /> : undefined}
      options={[...options, ...extra]}
      placeholder={t('monitor.irrigation.membersPlaceholder')}
      data-testid="valve-members"
    />
  );
}
