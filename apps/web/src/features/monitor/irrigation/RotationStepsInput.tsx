import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  formatRotationStep,
  parseRotationStep,
  ROTATION_STEP_MINUTES,
  type RotationStep,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { valveGroups } from './irrigation-api';

/**
 * A rotation's steps in running order: a valve group and its minutes each, added, removed and
 * moved up or down. Stored as `<groupId>:<minutes>`.
 */
export function RotationStepsInput({
  value,
  onChange,
  id,
}: {
  value?: string[];
  onChange?: (value: string[]) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const groups = useQuery({
    queryKey: ['monitor', 'valveGroupOptions'],
    queryFn: ({ signal }) => valveGroups(signal),
    staleTime: 30_000,
  });
  const steps: Array<Partial<RotationStep>> = (value ?? []).map(
    (text) => parseRotationStep(text) ?? {},
  );
  const emit = (next: Array<Partial<RotationStep>>) =>
    onChange?.(
      next.map((step) =>
        step.groupId
          ? formatRotationStep({ groupId: step.groupId, minutes: step.minutes ?? 30 })
          : '',
      ),
    );
  const set = (index: number, change: Partial<RotationStep>) =>
    emit(steps.map((step, at) => (at === index ? { ...step, ...change } : step)));
  const move = (index: number, by: number) => {
    const next = [...steps];
    const [step] = next.splice(index, 1);
    next.splice(index + by, 0, step!);
    emit(next);
  };
  const options = (groups.data?.list ?? []).map((group) => ({
    value: String(group.id),
    label: group.groupName,
  }));
  return (
    <Space direction="vertical" style={{ width: '100%' }} id={id} data-testid="rotation-steps">
      {steps.map((step, index) => (
        <Space key={index} wrap data-testid="rotation-step">
          <span>{index + 1}.</span>
          <Select
            style={{ minWidth: 200 }}
            showSearch={{ optionFilterProp: 'label' }}
            value={step.groupId}
            placeholder={t('monitor.irrigation.group')}
            options={options}
            onChange={(groupId: string) => set(index, { groupId })}
            data-testid="rotation-step-group"
          />
          <span data-testid="rotation-step-minutes">
            <InputNumber
              min={ROTATION_STEP_MINUTES.min}
              max={ROTATION_STEP_MINUTES.max}
              precision={0}
              value={step.minutes ?? 30}
              addonAfter={t('monitor.irrigation.minutes')}
              onChange={(minutes) => set(index, { minutes: minutes ?? undefined })}
            />
          </span>
          <Button
            size="small"
            icon={<ArrowUpOutlined />}
            disabled={index === 0}
            aria-label={t('monitor.irrigation.moveUp')}
            onClick={() => move(index, -1)}
          />
          <Button
            size="small"
            icon={<ArrowDownOutlined />}
            disabled={index === steps.length - 1}
            aria-label={t('monitor.irrigation.moveDown')}
            onClick={() => move(index, 1)}
          />
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('monitor.irrigation.removeStep')}
            onClick={() => emit(steps.filter((_, at) => at !== index))}
          />
        </Space>
      ))}
      <Button
        type="dashed"
        icon={<PlusOutlined />}
        onClick={() => emit([...steps, { minutes: 30 }])}
        data-testid="rotation-step-add"
      >
        {t('monitor.irrigation.addStep')}
      </Button>
    </Space>
  );
}
