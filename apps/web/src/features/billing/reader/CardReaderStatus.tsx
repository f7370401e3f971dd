import { ReloadOutlined } from '@ant-design/icons';
import type { CardData } from '@shuili/card-reader/protocol';
import { Alert, Button, Card, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SIMULATE_COMMAND,
  START_COMMAND,
  cardReaderErrorText,
  fenText,
  loadCardReaderStrings,
} from './card-reader-text';
import { useCardReader, type CardReaderHandle } from './use-card-reader';

/**
 * The desk's card reader at a glance, for the cashier pages: whether the card-reading service
 * runs on this computer (and how to start it when it does not), whether a reader is plugged in,
 * whether a card lies on it, and what the card holds.
 */
export function CardReaderStatus({ extra }: { extra?: ReactNode }) {
  const { t } = useTranslation();
  const reader = useCardReader();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    void loadCardReaderStrings().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);
  if (!ready) return <Spin size="small" />;
  const status = reader.status;
  return (
    <Card
      size="small"
      data-testid="card-reader-status"
      data-connection={reader.connection}
      title={t('cardReader.title')}
      extra={
        <Space size="small">
          {status && reader.connection === 'open' && (
            <Tag
              color={status.backend === 'simulated' ? 'gold' : 'blue'}
              title={
                status.readerName
                  ? t('cardReader.readerName', { name: status.readerName })
                  : undefined
              }
            >
              {t(`cardReader.backend.${status.backend}`)}
            </Tag>
          )}
          {extra}
        </Space>
      }
    >
      <ReaderBody reader={reader} />
    </Card>
  );
}

function ReaderBody({ reader }: { reader: CardReaderHandle }) {
  const { t } = useTranslation();
  const status = reader.status;
  if (reader.connection === 'off')
    return <Alert type="info" showIcon title={t('cardReader.off')} />;
  if (reader.connection === 'connecting')
    return (
      <Space>
        <Spin size="small" />
        {t('cardReader.connecting')}
      </Space>
    );
  if (reader.connection === 'closed' || !status)
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="card-reader-not-running"
        title={t('cardReader.notRunning')}
        description={
          <Space orientation="vertical" size={4}>
            <span>{t('cardReader.notRunningHelp')}</span>
            <Typography.Text code copyable>
              {START_COMMAND}
            </Typography.Text>
            <span>{t('cardReader.simulateHelp')}</span>
            <Typography.Text code copyable>
              {SIMULATE_COMMAND}
            </Typography.Text>
            <Typography.Text type="secondary">{t('cardReader.retrying')}</Typography.Text>
          </Space>
        }
      />
    );
  if (!status.readerPresent)
    return (
      <Alert
        type="warning"
        showIcon
        title={t('cardReader.noReader')}
        description={
          <Space orientation="vertical" size={4}>
            <span>{t('cardReader.noReaderHelp')}</span>
            {status.problem && (
              <Typography.Text type="secondary">
                {t('cardReader.detail', { problem: status.problem })}
              </Typography.Text>
            )}
          </Space>
        }
      />
    );
  const readAgain = (
    <Button size="small" icon={<ReloadOutlined />} onClick={() => void reader.readCard()}>
      {t('cardReader.readAgain')}
    </Button>
  );
  if (!status.cardPresent) return <Alert type="info" showIcon title={t('cardReader.placeCard')} />;
  if (reader.cardError)
    return (
      <Alert
        type="error"
        showIcon
        data-testid="card-reader-card-error"
        title={cardReaderErrorText(t, reader.cardError)}
        action={readAgain}
      />
    );
  if (!reader.card)
    return (
      <Space>
        <Spin size="small" />
        {t('cardReader.reading')}
      </Space>
    );
  return <CardFacts card={reader.card} action={readAgain} />;
}

function CardFacts({ card, action }: { card: CardData; action: ReactNode }) {
  const { t } = useTranslation();
  const items = [
    { key: 'uid', label: t('cardReader.field.uid'), children: card.uid },
    ...(card.issued
      ? [
          {
            key: 'cardType',
            label: t('cardReader.field.cardType'),
            children: card.cardType ? t(`cardReader.cardType.${card.cardType}`) : '',
          },
          { key: 'cardNo', label: t('cardReader.field.cardNo'), children: card.cardNo },
          { key: 'tenantCode', label: t('cardReader.field.tenantCode'), children: card.tenantCode },
          {
            key: 'balance',
            label: t('cardReader.field.balance'),
            children: (
              <Typography.Text strong data-testid="card-reader-balance">
                {t('cardReader.yuan', { amount: fenText(card.balanceFen) })}
              </Typography.Text>
            ),
          },
          { key: 'sequence', label: t('cardReader.field.sequence'), children: card.sequence },
        ]
      : []),
  ];
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="card-reader-card">
      {!card.issued && <Alert type="info" showIcon title={t('cardReader.blank')} action={action} />}
      <Descriptions size="small" column={1} bordered items={items} />
      {card.issued && action}
    </Space>
  );
}
