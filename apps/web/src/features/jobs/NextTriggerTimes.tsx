import { JOB_CALLS } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../lib/http';
import { zoneTimeText } from './zone-time';

/** Waits this long after the last keystroke before asking the server. */
const DEBOUNCE_MS = 300;

interface Answer {
  times: string[];
  timeZone: string;
}

export interface NextTriggerTimesProps {
  timeExpressionType: string;
  timeExpression: string;
}

/**
 * Spec §5: the next five trigger times of the expression being typed, as the scheduler will fire
 * them (the server answers in the tenant's time zone, with its own checks and words).
 */
export function NextTriggerTimes({ timeExpressionType, timeExpression }: NextTriggerTimesProps) {
  const { t } = useTranslation();
  const [asked, setAsked] = useState({ timeExpressionType, timeExpression });
  useEffect(() => {
    const timer = setTimeout(() => setAsked({ timeExpressionType, timeExpression }), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [timeExpressionType, timeExpression]);

  const expression = asked.timeExpression.trim();
  const preview = useQuery({
    queryKey: ['jobs', 'next-trigger-times', asked.timeExpressionType, expression],
    queryFn: ({ signal }) =>
      http.get<Answer>(JOB_CALLS.nextTriggerTimes, {
        params: { timeExpressionType: asked.timeExpressionType, timeExpression: expression },
        signal,
        silent: true,
      }),
    enabled: expression !== '',
    retry: false,
    staleTime: 30_000,
  });

  if (expression === '') return null;
  return (
    <div data-testid="job-next-times" style={{ marginBottom: 16 }}>
      <Typography.Text strong>
        {t('jobs.form.nextTimes')}
        {preview.data && (
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', marginLeft: 8 }}>
            {t('jobs.form.timeZone', { zone: preview.data.timeZone })}
          </Typography.Text>
        )}
      </Typography.Text>
      {preview.isFetching && !preview.data && (
        <div>
          <Spin size="small" />
        </div>
      )}
      {preview.error && (
        <Alert
          type="error"
          showIcon
          data-testid="job-next-times-error"
          title={preview.error.message || t('jobs.form.previewFailed')}
        />
      )}
      {preview.data && !preview.error && (
        <div style={{ marginTop: 4 }}>
          {preview.data.times.length === 0 ? (
            <Typography.Text type="secondary">{t('jobs.form.noMoreTimes')}</Typography.Text>
          ) : (
            <Space size={[4, 4]} wrap>
              {preview.data.times.map((time) => (
                <Tag key={time} data-testid="job-next-time" style={{ fontFamily: 'monospace' }}>
                  {zoneTimeText(time, preview.data.timeZone)}
                </Tag>
              ))}
            </Space>
          )}
        </div>
      )}
    </div>
  );
}
