import { SET_PROPERTY_COMMAND } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../../resource/field-label';
import type { Translate } from '../../../resource/field-rules';
import { controlSummary } from './confirm-control';
import { deviceApi } from './device-api';

/** A device's thing model, from the query the device page makes (one request per device). */
function useThingModel(deviceId: string) {
  return useQuery({
    queryKey: ['iot', 'deviceDetail', deviceId],
    queryFn: ({ signal }) => deviceApi.detail(deviceId, signal),
    enabled: deviceId !== '',
    staleTime: 60_000,
    select: (detail) => detail.thingModel,
  });
}

function paramsOf(params: unknown): unknown {
  if (typeof params !== 'string') return params;
  try {
    return JSON.parse(params) as unknown;
  } catch {
    return params;
  }
}

/**
 * A sent command in words, from the device's thing model: "Open valve" and "Channel: 2,
 * Duration: 2 min" instead of `openValve` and its JSON; the raw form while the model loads or
 * when the model does not know the command.
 */
export function CommandText({
  deviceId,
  name,
  params,
  part,
}: {
  deviceId: string;
  name: string;
  params?: unknown;
  part: 'name' | 'params';
}) {
  const { t } = useTranslation();
  const label = useLabel();
  const model = useThingModel(deviceId);
  const command =
    name === SET_PROPERTY_COMMAND
      ? undefined
      : model.data?.commands.find((one) => one.key === name);
  const values = paramsOf(params);
  if (part === 'name') return <span title={name}>{command ? label(command.name) : name}</span>;
  const raw = typeof values === 'string' ? values : JSON.stringify(values ?? {});
  if (!command || !values || typeof values !== 'object') return <span>{raw}</span>;
  const summary = controlSummary(
    '',
    '',
    command.params,
    values as Record<string, unknown>,
    label,
    t as Translate,
  );
  return (
    <span title={raw}>
      {summary.params.map((param) => `${param.name}: ${param.value}`).join(', ') || raw}
    </span>
  );
}
