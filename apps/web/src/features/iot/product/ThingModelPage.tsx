import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { TOAST_MS, type ThingModel } from '@shuili/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Result, Skeleton, Space, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { feedback } from '../../../lib/feedback';
import { HttpError } from '../../../lib/http';
import { EntryTable } from './EntryTable';
import { errorPlace, type ThingSection } from './error-place';
import { ParamTable } from './ParamTable';
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

  const update = (patch: Partial<ThingModel>) => setDraft({ ...draft, ...patch });
  const where = (error: PlacedError) => {
    if (!error.section) return '';
    const section = t(`iot.thingModel.sections.${error.section}`);
    const row = error.index === undefined ? undefined : draft[error.section][error.index];
    return row ? `${section} › ${row.key}: ` : `${section}: `;
  };
  const count = (section: ThingSection) =>
    `${t(`iot.thingModel.sections.${section}`)} (${draft[section].length})`;

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
      <Tabs
        items={[
          {
            key: 'properties',
            label: count('properties'),
            children: (
              <ParamTable
                items={draft.properties}
                onChange={(properties) => update({ properties })}
                withAccess
                badRows={badRows.properties}
                testId="thing-properties"
              />
            ),
          },
          {
            key: 'events',
            label: count('events'),
            children: (
              <EntryTable
                kind="event"
                items={draft.events}
                onChange={(events) => update({ events })}
                badRows={badRows.events}
                testId="thing-events"
              />
            ),
          },
          {
            key: 'commands',
            label: count('commands'),
            children: (
              <EntryTable
                kind="command"
                items={draft.commands}
                onChange={(commands) => update({ commands })}
                badRows={badRows.commands}
                testId="thing-commands"
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
