import { QuestionCircleOutlined } from '@ant-design/icons';
import { CRON_EXAMPLES } from '@shuili/contract';
import { Button, Popover, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLabel } from '../../resource/field-label';

/** The CRON help: the field order and examples a click puts in the expression. */
export function CronHelp({ onPick }: { onPick: (expression: string) => void }) {
  const { t } = useTranslation();
  const label = useLabel();
  const content = (
    <div style={{ maxWidth: 440 }} data-testid="job-cron-help">
      <Typography.Paragraph type="secondary">{t('jobs.form.cronSyntax')}</Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        rowKey="expression"
        dataSource={CRON_EXAMPLES}
        columns={[
          {
            key: 'expression',
            title: t('jobs.form.cronExpression'),
            render: (_: unknown, example) => (
              <Button
                type="link"
                size="small"
                style={{ fontFamily: 'monospace', padding: 0 }}
                onClick={() => onPick(example.expression)}
              >
                {example.expression}
              </Button>
            ),
          },
          {
            key: 'meaning',
            title: t('jobs.form.cronMeaning'),
            render: (_: unknown, example) => label(example.label),
          },
        ]}
      />
    </div>
  );
  return (
    <Popover content={content} title={t('jobs.form.cronHelp')} trigger="click">
      <QuestionCircleOutlined
        aria-label={t('jobs.form.cronHelp')}
        role="button"
        data-testid="job-cron-help-button"
        style={{ cursor: 'pointer' }}
      />
    </Popover>
  );
}
