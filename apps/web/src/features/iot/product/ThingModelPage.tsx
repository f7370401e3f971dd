import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { TOAST_MS, type ThingModel } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Result, Skeleton, Space, Tabs, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { feedback } from '../../../lib/feedback';
import { HttpError } from '../../../lib/http';
import { EntryTable } from './EntryTable';
import { errorPlace, type ThingSection } from './error-place';
import { ParamTable } from './ParamTable';
import { ReportIntervalField } from './ReportIntervalField';
import { fetchThingModel, saveThingModel } from './thing-model-api';

interface PlacedError {
  section: ThingSection | undefined;
  index: number | undefined;
  text: string;
}

/**
 * Spec /IOTproductShowEdit/{serialNo}: the product's thing model (properties, events, commands)
 * edited as ordered lists and saved as a whole; the server checks it with thingModelSchema and
 * its field errors are shown beside the rows they name.
 */
export function ThingModelPage() {
  const { t } = useTranslation();
  const { serialNo = '' } = useParams();
  const queryClient = useQueryClient();
  const queryKey = ['iot', 'thingModel', serialNo];
  const loaded = useQuery({
    queryKey,
    queryFn: ({ signal }) => fetchThingModel(serialNo, signal),
    enabled: serialNo !== '',
  });
  // Unedited, the page shows what the server holds; the first change starts a draft.
  const [edited, setDraft] = useState<ThingModel>();
  const draft = edited ?? loaded.data?.thingModel;
  const [errors, setErrors] = useState<PlacedError[]>([]);

  const save = useMutation({
    mutationFn: (model: ThingModel) => saveThingModel(serialNo, model),
    onSuccess: async () => {
      setErrors([]);
      setDraft(undefined);
      feedback.success(t('iot.thingModel.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => {
      if (!(error instanceof HttpError)) return;
      setErrors(
        error.fieldErrors.map((fieldError) => {
          const place = errorPlace(fieldError.field);
          return { section: place?.section, index: place?.index, text: fieldError.message };
        }),
      );
    },
  });

  const badRows = useMemo(() => {
    const rows: Record<ThingSection, Set<number>> = {
      properties: new Set(),
      events: new Set(),
      commands: new Set(),
    };
    for (const error of errors) {
      if (error.section && error.index !== undefined) rows[error.section].add(error.index);
    }
    return rows;
  }, [errors]);

  if (loaded.isError) {
    return <Result status="warning" title={loaded.error.message} />;
  }
  if (!draft || !loaded.data) return <Skeleton active />;

  const where = (error: PlacedError) => {
    if (!error.section) return '';
    const section = t(`iot.thingModel.sections.${error.section}`);
    const row = error.index === undefined ? undefined : draft[error.section][error.index];
    return row ? `${section} › ${row.key}: ` : `${section}: `;
  };
  // Each tab edits one list of the draft, its rows marked where the server found them wrong.
  const listOf = <S extends ThingSection>(section: S) => ({
    items: draft[section],
    onChange: (items: ThingModel[S]) => setDraft({ ...draft, [section]: items }),
    badRows: badRows[section],
    testId: `thing-${section}`,
  });
  const tab = (section: ThingSection, children: ReactNode) => ({
    key: section,
    label: `${t(`iot.thingModel.sections.${section}`)} (${draft[section].length})`,
    children,
  });

  return (
    <Card
      title={
        <Space>
          <span>{t('iot.thingModel.title')}</span>
          <Typography.Text type="secondary" data-testid="thing-model-product">
            {loaded.data.productName} ({loaded.data.serialNo})
          </Typography.Text>
        </Space>
      }
      extra={
        <Space>
          <Button
            icon={<UndoOutlined />}
            onClick={() => {
              setDraft(undefined);
              setErrors([]);
            }}
          >
            {t('iot.thingModel.revert')}
          </Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={save.isPending}
            onClick={() => save.mutate(draft)}
            data-testid="thing-model-save"
          >
            {t('iot.thingModel.save')}
          </Button>
        </Space>
      }
      data-testid="thing-model-page"
    >
      {errors.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('iot.thingModel.rejected')}
          description={
            <ul data-testid="thing-model-errors">
              {errors.map((error, index) => (
                <li key={index}>
                  {where(error)}
                  {error.text}
                </li>
              ))}
            </ul>
          }
        />
      )}
      <ReportIntervalField
        value={draft.reportIntervalSeconds}
        onChange={(seconds) => setDraft({ ...draft, reportIntervalSeconds: seconds })}
      />
      <Tabs
        items={[
          tab('properties', <ParamTable {...listOf('properties')} withAccess />),
          tab('events', <EntryTable kind="event" {...listOf('events')} />),
          tab('commands', <EntryTable kind="command" {...listOf('commands')} />),
        ]}
      />
    </Card>
  );
}
