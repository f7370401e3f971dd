import { INSECT_CALLS, INSECT_ORDERS, type Lang } from '@shuili/contract';
import { Descriptions, Drawer, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocaleStore } from '../../../i18n/i18n';
import { useLabel } from '../../../resource/field-label';
import type { ResourceRow } from '../../../resource/resource-row';
import { AuthImage } from './AuthImage';

const SUFFIX: Record<Lang, string> = { zh: 'Zh', tw: 'Tw', en: 'En' };

/** A species' text in the reader's language, else the first language that has one. */
function textIn(row: ResourceRow, field: 'hints' | 'advice', lang: Lang): string {
  const order: Lang[] = [lang, 'zh', 'tw', 'en'];
  for (const one of order) {
    const text = row[`${field}${SUFFIX[one]}`];
    if (typeof text === 'string' && text.trim()) return text;
  }
  return '—';
}

/** A species of the catalogue as a farmer's leaflet: its picture, names, hints and advice. */
export function SpeciesDetail({ row, onClose }: { row?: ResourceRow; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLocaleStore((state) => state.lang);
  const label = useLabel();
  const order = INSECT_ORDERS.find((one) => one.value === row?.['insectOrder']);
  return (
    <Drawer
      open={row !== undefined}
      onClose={onClose}
      width={560}
      title={String(row?.['nameZh'] ?? '')}
    >
      {row && (
        <Flex vertical gap={16} data-testid="species-detail">
          <AuthImage
            url={INSECT_CALLS.speciesPicture}
            id={String(row.id)}
            version={String(row['pictureAt'] ?? '')}
            alt={String(row['nameZh'])}
            width={480}
            height={360}
          />
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('monitor.insect.latinName')}>
              <Typography.Text italic>{String(row['nameLatin'] ?? '')}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('monitor.insect.englishName')}>
              {String(row['nameEn'] ?? '') || '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('monitor.insect.order')}>
              {order ? label(order.label) : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('monitor.insect.hosts')}>
              {String(row['hostCrops'] ?? '') || '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('monitor.insect.hints')}>
              <div data-testid="species-hints">{textIn(row, 'hints', lang)}</div>
            </Descriptions.Item>
            <Descriptions.Item label={t('monitor.insect.advice')}>
              <div data-testid="species-advice">{textIn(row, 'advice', lang)}</div>
            </Descriptions.Item>
          </Descriptions>
        </Flex>
      )}
    </Drawer>
  );
}
