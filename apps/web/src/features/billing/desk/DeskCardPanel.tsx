import type { DeskCard } from '@shuili/contract';
import { Alert, Card, Descriptions, Input, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError } from '../../../lib/http';
import { fenText } from './desk-money';
import { PendingWrites } from './PendingWrites';
import type { DeskReaderHandle } from './use-desk-reader';
import type { useDeskCard } from './useDeskCard';

const STATE_COLORS: Record<string, string> = {
  registered: 'blue',
  bound: 'green',
  lost: 'red',
  replaced: 'default',
  cancelled: 'default',
};

/**
 * The card the desk works on: its number (from the reader, or typed), state, household, money
 * and this year's water right, and the writes not yet on it (written from here when it lies on
 * the reader).
 */
export function DeskCardPanel({
  desk,
  card,
}: {
  desk: DeskReaderHandle;
  card: ReturnType<typeof useDeskCard>;
}) {
  const { t } = useTranslation();
  const data = card.query.data;
  // A card with writes not yet on it is written when it is read: the newest write (it carries
  // the whole balance), once per placing of the card (and once more after its sequence moved).
  const retried = useRef<string>(undefined);
  useEffect(() => {
    // Not on an answer being refreshed: it may list a write just made.
    if (card.query.isFetching) return;
    const newest = data?.pendingWrites[0];
    const onReader = desk.reader.card;
    if (!newest || !onReader || desk.cardOnReader?.toUpperCase() !== newest.cardNo.toUpperCase())
      return;
    const placing = `${onReader.uid}:${onReader.sequence}:${newest.id}`;
    if (retried.current === placing) return;
    retried.current = placing;
    void desk.writeImage(newest);
  }, [data, desk, card.query.isFetching]);
  return (
    <Card size="small" data-testid="desk-card">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <CardNoSearch key={card.cardNo ?? ''} card={card} />
        {!card.cardNo && <Alert type="info" showIcon title={t('desk.noCard')} />}
        {card.query.isFetching && !data && <Spin size="small" />}
        {card.query.error && (
          <Alert
            type="error"
            showIcon
            data-testid="desk-card-error"
            title={
              card.query.error instanceof HttpError
                ? card.query.error.message
                : String(card.query.error)
            }
          />
        )}
        {data && <DeskCardFacts data={data} />}
        {data && data.pendingWrites.length > 0 && (
          <PendingWrites desk={desk} writes={data.pendingWrites} />
        )}
      </Space>
    </Card>
  );
}

function DeskCardFacts({ data }: { data: DeskCard }) {
  const { t } = useTranslation();
  const { card, household, balance, quota } = data;
  const items = [
    {
      key: 'cardNo',
      label: t('desk.cardNo'),
      children: (
        <Space>
          <Typography.Text strong>{card.cardNo}</Typography.Text>
          <Tag
            color={STATE_COLORS[card.cardState]}
            data-testid="desk-card-state"
            data-state={card.cardState}
          >
            {t(`desk.state.${card.cardState as 'bound'}`, card.cardState)}
          </Tag>
          {card.replacesCardNo && (
            <Typography.Text type="secondary">
              {t('desk.replaces', { cardNo: card.replacesCardNo })}
            </Typography.Text>
          )}
          {card.replacedByCardNo && (
            <Typography.Text type="secondary">
              {t('desk.replacedBy', { cardNo: card.replacedByCardNo })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'household',
      label: t('desk.household'),
      children: household ? (
        <span data-testid="desk-household">
          {household.householdName}
          {household.village ? ` · ${household.village}` : ''}
          {household.idNumberMasked ? ` · ${household.idNumberMasked}` : ''}
          {household.phone ? ` · ${household.phone}` : ''}
        </span>
      ) : (
        <Typography.Text type="secondary">{t('desk.noHousehold')}</Typography.Text>
      ),
    },
    ...(balance
      ? [
          {
            key: 'available',
            label: t('desk.available'),
            children: (
              <Typography.Text strong data-testid="desk-available" data-fen={balance.availableFen}>
                {t('desk.yuan', { amount: fenText(balance.availableFen) })}
              </Typography.Text>
            ),
          },
          {
            key: 'held',
            label: t('desk.held'),
            children: t('desk.yuan', { amount: fenText(balance.heldFen) }),
          },
          {
            key: 'quota',
            label: t('desk.quota', { year: quota?.year ?? new Date().getFullYear() }),
            children: quota
              ? t('desk.quotaText', {
                  used: quota.usedM3,
                  quota: quota.quotaM3,
                  remaining: quota.remainingM3,
                })
              : t('desk.noQuota'),
          },
        ]
      : []),
  ];
  return <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered items={items} />;
}

/** The card number box: the card worked on (remounted when it changes), or one typed. */
function CardNoSearch({ card }: { card: ReturnType<typeof useDeskCard> }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(card.cardNo ?? '');
  return (
    <Input.Search
      data-testid="desk-card-no"
      value={typed}
      allowClear
      placeholder={t('desk.cardNoPlaceholder')}
      enterButton={t('desk.lookUp')}
      onChange={(event) => setTyped(event.target.value)}
      onSearch={(value) => card.setCardNo(value.trim().toUpperCase() || undefined)}
      style={{ maxWidth: 420 }}
    />
  );
}
