import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { numberOf } from '../widgets/device-values';
import { LabelledValue } from '../widgets/LabelledValue';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { useLedPrograms } from './led-api';
import { LedCanvas } from './LedCanvas';
import { useLiveValues } from './use-live-values';
import { useScreenPrograms } from './use-screen-programs';

/** The thumbnail's width in CSS pixels, whatever the screen's resolution. */
const THUMB_WIDTH = 200;

/**
 * An LED screen on its card (power, brightness and resolution are the card's key values): the
 * program it reports showing and a small picture of that program's first page with the live
 * values as they are now; dark when the screen is off.
 */
export function LedScreenCard({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const programs = useLedPrograms();
  const code = useScreenPrograms([device.id])[device.id] ?? '';
  const program = programs.data?.list.find((row) => row.programNo === code);
  const values = useLiveValues(program?.firstPage ? [program.firstPage] : []);
  const on = numberOf(device, 'powerOn') === 1;

  return (
    <div data-testid="widget-ledScreen" data-program={code}>
      <LabelledValue label={t('monitor.led.showing')}>
        <span data-testid="led-showing">
          {program ? `${program.programName} (${code})` : code || t('monitor.led.nothing')}
        </span>
      </LabelledValue>
      {program?.firstPage && (
        <div style={{ marginTop: 8, opacity: on ? 1 : 0.25 }}>
          <LedCanvas
            page={program.firstPage}
            width={program.width}
            height={program.height}
            scale={THUMB_WIDTH / program.width}
            values={values}
            testId="led-card-preview"
          />
          {!on && <Typography.Text type="secondary">{t('monitor.led.screenOff')}</Typography.Text>}
        </div>
      )}
    </div>
  );
}
