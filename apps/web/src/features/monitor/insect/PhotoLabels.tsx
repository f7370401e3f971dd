import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { entityCalls, insectPhotoLabelEntity, type TrapPhoto } from '@shuili/contract';
import { Button, Flex, InputNumber, Popconfirm, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../lib/http';
import { useSpeciesOptions } from './species-options';

const LABELS = entityCalls(insectPhotoLabelEntity);
const MAX_COUNT = 100_000;

export interface PhotoLabelsProps {
  photo: TrapPhoto;
  /** After any change: the gallery reads the day again. */
  onChanged: () => Promise<unknown>;
}

/**
 * The species counted on one photo: each count can be changed or removed, and a species of the
 * catalogue not yet counted added with its count. The server refuses what is wrong (a species
 * gone, a count out of range) with a message naming the field, shown by the HTTP client.
 */
export function PhotoLabels({ photo, onChanged }: PhotoLabelsProps) {
  const { t } = useTranslation();
  const species = useSpeciesOptions();
  const [speciesId, setSpeciesId] = useState<string | undefined>();
  const [count, setCount] = useState<number | null>(1);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      await onChanged();
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const add = () =>
    run(async () => {
      if (!speciesId || count === null) return;
      await http.post(LABELS.add, { data: { fileId: photo.id, speciesId, insectCount: count } });
      setSpeciesId(undefined);
      setCount(1);
    });
  const counted = new Set(photo.labels.map((label) => label.speciesId));
  const options = (species.data ?? [])
    .filter((one) => !counted.has(one.id))
    .map((one) => ({ value: one.id, label: `${one.nameZh} ${one.nameLatin}` }));

  return (
    <Flex vertical gap={8} data-testid="photo-labels">
      <Typography.Text strong>{t('monitor.insect.speciesCounts')}</Typography.Text>
      {photo.labels.length === 0 && (
        <Typography.Text type="secondary">{t('monitor.insect.noLabels')}</Typography.Text>
      )}
      {photo.labels.map((label) => (
        <Flex
          key={label.id}
          gap={8}
          align="center"
          data-testid="photo-label"
          data-species={label.nameZh}
        >
          <span style={{ flex: 1, minWidth: 0 }}>
            {label.nameZh}{' '}
            <Typography.Text type="secondary" italic>
              {label.nameLatin}
            </Typography.Text>
          </span>
          <InputNumber
            size="small"
            min={0}
            max={MAX_COUNT}
            precision={0}
            defaultValue={label.insectCount}
            aria-label={t('monitor.insect.countOf', { species: label.nameZh })}
            disabled={busy}
            onBlur={(event) => {
              const value = Number(event.target.value);
              if (!Number.isInteger(value) || value === label.insectCount) return;
              void run(() =>
                http.put(LABELS.update, {
                  data: { id: label.id, speciesId: label.speciesId, insectCount: value },
                }),
              );
            }}
            onPressEnter={(event) => (event.target as HTMLInputElement).blur()}
          />
          <Popconfirm
            title={t('monitor.insect.removeLabel', { species: label.nameZh })}
            onConfirm={() => run(() => http.post(LABELS.delete, { params: { id: label.id } }))}
          >
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('monitor.insect.removeLabel', { species: label.nameZh })}
              disabled={busy}
            />
          </Popconfirm>
        </Flex>
      ))}
      <Flex gap={8} align="center">
        <Select
          data-testid="label-species"
          style={{ flex: 1, minWidth: 0 }}
          size="small"
          showSearch
          optionFilterProp="label"
          placeholder={t('monitor.insect.pickSpecies')}
          loading={species.isLoading}
          options={options}
          value={speciesId}
          onChange={setSpeciesId}
        />
        <InputNumber
          data-testid="label-count"
          size="small"
          min={0}
          max={MAX_COUNT}
          precision={0}
          value={count}
          onChange={setCount}
          aria-label={t('monitor.insect.count')}
        />
        <Button
          size="small"
          type="primary"
          icon={<PlusOutlined />}
          data-testid="label-add"
          disabled={!speciesId || count === null}
          loading={busy}
          onClick={() => void add()}
        >
          {t('monitor.insect.addLabel')}
        </Button>
      </Flex>
    </Flex>
  );
}
