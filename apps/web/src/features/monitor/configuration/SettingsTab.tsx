import {
  AREA_SETTING_CALLS,
  settingValueOf,
  TOAST_MS,
  type AreaDef,
  type AreaDeviceSettings,
  type AreaSettingDef,
  type AreaSettingValue,
  type PageResult,
} from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Flex, Form, InputNumber, Select, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { http, HttpError } from '../../../lib/http';
import { useLabel } from '../../../resource/field-label';
import { useUnit } from '../../iot/units';
import { useReportDevices } from '../report/use-report-devices';

/** Helper "rules"'s calls (AREA_SETTING_CALLS): one device's settings, and saving them. */
const settingsApi = {
  device: (area: string, deviceId: string, signal?: AbortSignal) =>
    http
      .get<PageResult<AreaDeviceSettings>>(AREA_SETTING_CALLS.query, {
        params: { area, deviceId },
        signal,
        silent: true,
      })
      .then((page) => page.list[0]),
  save: (area: string, deviceId: string, values: Record<string, AreaSettingValue | null>) =>
    http.post<unknown>(AREA_SETTING_CALLS.update, {
      data: { area, deviceId, values },
    }),
};

/** One setting's control, after its declaration (number, integer, option, switch). */
function SettingControl({ def, ...control }: { def: AreaSettingDef; id?: string }) {
  const label = useLabel();
  const unitOf = useUnit();
  switch (def.type) {
    case 'boolean':
      return <Switch {...control} />;
    case 'enum':
      return (
        <Select
          {...control}
          options={(def.options ?? []).map((option) => ({
            value: option.value,
            label: label(option.label),
          }))}
          style={{ width: 220 }}
        />
      );
    default:
      return (
        <InputNumber<number>
          {...control}
          min={def.min}
          max={def.max}
          precision={def.type === 'integer' ? 0 : def.precision}
          suffix={def.unit ? unitOf(def.unit) : undefined}
          style={{ width: 220 }}
        />
      );
  }
}

/**
 * The area's automation settings of one device (a pump station's dry-run level, a soil station's
 * soil type and drought rule): each its own value or the area's default, saved together.
 */
export function SettingsTab({ area }: { area: AreaDef }) {
  const { t } = useTranslation();
  const label = useLabel();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Record<string, AreaSettingValue>>();
  const devices = useReportDevices(area, '');
  const [picked, setPicked] = useState<string | undefined>();
  const deviceId = picked ?? devices.data?.[0]?.id;
  const settings = useQuery({
    queryKey: ['monitor', 'areaSetting', area.code, deviceId],
    queryFn: ({ signal }) => settingsApi.device(area.code, deviceId!, signal),
    enabled: !!deviceId,
    retry: false,
  });
  const values = settings.data?.values;
  useEffect(() => {
    form.setFieldsValue(
      Object.fromEntries(
        area.settings.map((def) => [def.key, settingValueOf(def, values?.[def.key])]),
      ),
    );
  }, [form, area, values]);
  const save = useMutation({
    mutationFn: (edited: Record<string, AreaSettingValue>) =>
      settingsApi.save(area.code, deviceId!, edited),
    onSuccess: () => {
      feedback.success(t('monitor.config.settingsSaved'), TOAST_MS.success / 1000);
      void queryClient.invalidateQueries({ queryKey: ['monitor', 'areaSetting'] });
      void queryClient.invalidateQueries({ queryKey: ['monitor', 'areaSettings', area.code] });
    },
  });

  if (devices.data && devices.data.length === 0)
    return <Empty description={t('monitor.config.noDevices')} />;
  // The settings' own calls missing or refused: say so rather than show defaults as the truth.
  const missing = settings.error instanceof HttpError && [403, 404].includes(settings.error.status);
  return (
    <Flex vertical gap={12} data-testid="settings-tab">
      <Select
        value={deviceId}
        onChange={setPicked}
        showSearch={{ optionFilterProp: 'label' }}
        options={(devices.data ?? []).map((device) => ({ value: device.id, label: device.label }))}
        aria-label={t('monitor.config.device')}
        style={{ maxWidth: 360 }}
        data-testid="settings-device"
      />
      {missing && (
        <Alert type="warning" showIcon message={t('monitor.config.settingsUnavailable')} />
      )}
      <Form
        form={form}
        name="area-settings"
        layout="horizontal"
        labelCol={{ flex: '180px' }}
        disabled={!deviceId || missing || settings.isFetching}
        onFinish={(edited) => save.mutate(edited)}
        data-testid="settings-form"
      >
        {area.settings.map((def) => (
          <Form.Item
            key={def.key}
            name={def.key}
            label={label(def.label)}
            valuePropName={def.type === 'boolean' ? 'checked' : 'value'}
            extra={
              <>
                {def.help && label(def.help)}
                {settings.data && !settings.data.own.includes(def.key) && (
                  <Typography.Text type="secondary">
                    {' '}
                    {t('monitor.config.defaultValue')}
                  </Typography.Text>
                )}
              </>
            }
            rules={[{ required: true, message: t('monitor.config.required') }]}
          >
            <SettingControl def={def} />
          </Form.Item>
        ))}
        <Form.Item label=" " colon={false}>
          <Button
            type="primary"
            htmlType="submit"
            loading={save.isPending}
            data-testid="settings-save"
          >
            {t('monitor.config.save')}
          </Button>
        </Form.Item>
      </Form>
    </Flex>
  );
}
