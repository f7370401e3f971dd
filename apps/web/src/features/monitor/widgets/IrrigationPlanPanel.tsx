import {
  WEEKDAYS,
  entityCalls,
  rotationScheduleEntity,
  valveGroupEntity,
  type PageResult,
} from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Empty, Flex, List, Spin, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { useLabel } from '../../../resource/field-label';
import { planOf, timeAfter, type RotationScheduleRow, type ValveGroupRow } from './irrigation-plan';
import { optionalCall } from './optional-call';
import { PanelFrame } from './PanelFrame';
import type { AreaWidgetProps } from './widget-types';

/** Groups and schedules read at once: a district's plan, not a page of it. */
const ALL = 2000;

const readAll = <Row,>(url: string, signal: AbortSignal) =>
  optionalCall<PageResult<Row>>(url, { currentPage: 1, pageSize: ALL }, signal);

/**
 * The irrigation plan as it touches this controller: the valve groups with a channel of it
 * (which channels), and the rotation schedules that open those groups, with the days, the time
 * of day this controller's valves open and for how long, and the next run.
 */
export function IrrigationPlanPanel({ device }: AreaWidgetProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const groups = useQuery({
    queryKey: ['monitor', 'valveGroups'],
    queryFn: ({ signal }) => readAll<ValveGroupRow>(entityCalls(valveGroupEntity).query, signal),
    staleTime: 60_000,
    retry: false,
  });
  const schedules = useQuery({
    queryKey: ['monitor', 'rotationSchedules'],
    queryFn: ({ signal }) =>
      readAll<RotationScheduleRow>(entityCalls(rotationScheduleEntity).query, signal),
    staleTime: 60_000,
    retry: false,
  });
  const plan = useMemo(
    () => planOf(device.id, groups.data?.list ?? [], schedules.data?.list ?? []),
    [device.id, groups.data, schedules.data],
  );
  const dayNames = (days: readonly string[]) =>
    days.length === 0 || days.length === 7
      ? t('monitor.widget.everyDay')
      : days
          .map((day) => WEEKDAYS.find((weekday) => weekday.value === day))
          .map((weekday) => (weekday ? label(weekday.label) : ''))
          .join(' ');

  return (
    <PanelFrame title={t('monitor.widget.irrigationPlan')} testId="widget-irrigationPlan">
      <Spin spinning={groups.isPending || schedules.isPending}>
        {plan.groups.length === 0 ? (
          <Empty description={t('monitor.widget.noPlan')} />
        ) : (
          <Flex vertical gap={8}>
            <Flex wrap gap={6} data-testid="plan-groups">
              {plan.groups.map((group) => (
                <Tag
                  key={group.id}
                  color={group.enabled ? 'blue' : 'default'}
                  data-testid="plan-group"
                  data-group={group.name}
                >
                  {group.name}
                  {group.zone ? ` · ${group.zone}` : ''} ·{' '}
                  {t('monitor.widget.channels', {
                    channels: group.channels.map((channel) => `#${channel}`).join(' '),
                  })}
                </Tag>
              ))}
            </Flex>
            <List
              size="small"
              dataSource={plan.schedules}
              locale={{ emptyText: t('monitor.widget.noSchedule') }}
              renderItem={(schedule) => (
                <List.Item data-testid="plan-schedule" data-schedule={schedule.name}>
                  <Flex vertical style={{ width: '100%' }}>
                    <Flex justify="space-between" wrap gap={8}>
                      <Typography.Text strong delete={!schedule.enabled}>
                        {schedule.name}
                      </Typography.Text>
                      <Typography.Text type="secondary">
                        {dayNames(schedule.days)} {schedule.startTime}
                      </Typography.Text>
                    </Flex>
                    {schedule.steps.map((step) => (
                      <Typography.Text key={`${step.groupId}-${step.offsetMinutes}`}>
                        {t('monitor.widget.planStep', {
                          group: step.groupName,
                          from: timeAfter(schedule.startTime, step.offsetMinutes),
                          to: timeAfter(schedule.startTime, step.offsetMinutes + step.minutes),
                          minutes: step.minutes,
                        })}
                      </Typography.Text>
                    ))}
                    {schedule.nextRun && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {t('monitor.widget.nextRun', { at: formatDate(schedule.nextRun) })}
                      </Typography.Text>
                    )}
                  </Flex>
                </List.Item>
              )}
            />
          </Flex>
        )}
      </Spin>
    </PanelFrame>
  );
}
