import { Tooltip } from 'antd';
import { formatDate } from '../../../lib/format';
import { NO_VALUE, useValueText } from '../widgets/use-value-text';
import type { AreaDevice } from '../widgets/widget-types';

/**
 * One live value of a device as its thing model writes it (decimals, unit, enum label), with
 * the time it was measured on hover.
 */
export function AreaValue({ device, factor }: { device: AreaDevice; factor: string }) {
  const { text } = useValueText(device);
  const at = device.valueTimes[factor];
  const shown = text(factor);
  const value = (
    <span data-testid="area-value" data-key={factor} data-device-no={device.deviceNo}>
      {shown}
    </span>
  );
  return at && shown !== NO_VALUE ? <Tooltip title={formatDate(at)}>{value}</Tooltip> : value;
}
