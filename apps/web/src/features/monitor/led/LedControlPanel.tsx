import { PoweroffOutlined, SendOutlined } from '@ant-design/icons';
import { TOAST_MS } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Select, Slider, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { feedback } from '../../../lib/feedback';
import type { Translate } from '../../../resource/field-rules';
import { confirmControl } from '../../iot/device/confirm-control';
import { deviceApi } from '../../iot/device/device-api';
import { numberOf } from '../widgets/device-values';
import { PanelFrame } from '../widgets/PanelFrame';
import type { AreaWidgetProps } from '../widgets/widget-types';
import { useLedPrograms } from './led-api';
import { setProgramPath } from './led-paths';
import { useScreenPrograms } from './use-screen-programs';

/**
 * The selected screen's controls: power on or off and brightness (its writable properties, sent
 * as setProperty after a confirmation), and which program it shows: a program picked here is
 * sent from the set-program page, which follows the screen's acknowledgement.
 */
export function LedControlPanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const programs = useLedPrograms();
  const reported = numberOf(device, 'brightness');
  const [brightness, setBrightness] = useState<number | undefined>();
  const current = useScreenPrograms([device.id])[device.id] ?? '';
  const [programId, setProgramId] = useState<string | undefined>();
  const power = numberOf(device, 'powerOn');

  const set = async (values: Record<string, unknown>, action: string, value: string) => {
    const summary = { device: device.deviceName, action, params: [{ name: action, value }] };
    if (!(await confirmControl(summary, t as Translate))) return;
    const sent = await deviceApi
      .send({ deviceId: device.id, name: 'setProperty', params: values })
      .catch(() => undefined);
    if (!sent) return;
    feedback.success(t('monitor.led.controlSent'), TOAST_MS.success / 1000);
    await queryClient.invalidateQueries({ queryKey: ['monitor', 'area-devices'] });
  };

  if (device.thingModel.properties.length === 0) return null;
  return (
    <PanelFrame title={t('monitor.led.controls')} testId="widget-ledControl">
      <Flex vertical gap={12}>
        <Space wrap>
          <Button
            icon={<PoweroffOutlined />}
            type={power === 1 ? 'default' : 'primary'}
            data-testid="led-power-toggle"
            onClick={() =>
              void set(
                { powerOn: power !== 1 },
                t('monitor.led.power'),
                t(power === 1 ? 'monitor.led.powerOff' : 'monitor.led.powerOn'),
              )
            }
          >
            {t(power === 1 ? 'monitor.led.turnOff' : 'monitor.led.turnOn')}
          </Button>
        </Space>
        <Flex align="center" gap={12}>
          <span style={{ flex: 'none' }}>{t('monitor.led.brightness')}</span>
          <Slider
            style={{ flex: 1 }}
            min={0}
            max={100}
            value={brightness ?? reported ?? 0}
            onChange={setBrightness}
            data-testid="led-brightness"
          />
          <Button
            disabled={brightness === undefined || brightness === reported}
            onClick={() =>
              void set({ brightness }, t('monitor.led.brightness'), `${brightness ?? ''} %`).then(
                () => setBrightness(undefined),
              )
            }
          >
            {t('monitor.led.apply')}
          </Button>
        </Flex>
        <Flex align="center" gap={12}>
          <Select
            style={{ flex: 1 }}
            placeholder={t('monitor.led.pickProgram')}
            value={programId}
            onChange={setProgramId}
            data-testid="led-program-pick"
            options={(programs.data?.list ?? []).map((row) => ({
              value: row.id,
              label: `${row.programName} (${row.programNo})${row.programNo === current ? ` · ${t('monitor.led.showingNow')}` : ''}`,
            }))}
          />
          <Button
            type="primary"
            icon={<SendOutlined />}
            disabled={!programId}
            onClick={() => void navigate(setProgramPath(programId!, [device.id]))}
          >
            {t('monitor.led.sendProgram')}
          </Button>
        </Flex>
      </Flex>
    </PanelFrame>
  );
}
