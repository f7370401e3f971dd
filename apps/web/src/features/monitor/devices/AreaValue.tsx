import { formatDate } from '../../../lib/format';
import { NO_VALUE, useValueText } from '../widgets/use-value-text';
import type { AreaDevice } from '../widgets/widget-types';

/**
 * One live value of a device as its thing model writes it (decimals, unit, enum label), with
 * the time it was measured on hover. A list has hundreds of these cells: the hover is the
 * browser's own title, not a Tooltip component per cell (which tripled the table's drawing).
 */
export function AreaValue({ device, factor }: { device: AreaDevice; factor: string }) {
  const { text } = useValueText(device);
  const at = device.valueTimes[factor];
  const shown = text(factor);
  return (
    <span
      data-testid="area-value"
      data-key={factor}
      data-device-no={device.deviceNo}
      title={at && shown !== NO_VALUE ? formatDate(at) : undefined}
    >
      {shown}
    </span>
  );
}
