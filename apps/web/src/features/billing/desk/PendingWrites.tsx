import type { CardWrite } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deskApi, DESK_KEYS, newIdempotencyKey } from './desk-api';
import { fenText } from './desk-money';
import type { DeskReaderHandle } from './use-desk-reader';

/**
 * Writes committed on the server but not yet on their card: written from here when the card lies
 * on the reader; the cashier may give one up (it stays listed, retried when the card is next
 * read) and reverse its ledger transaction, once.
 */
export function PendingWrites({ desk, writes }: { desk: DeskReaderHandle; writes: CardWrite[] }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="desk-pending-writes"
      title={t('desk.pending.title')}
      description={
        <List
          size="small"
          dataSource={writes}
          renderItem={(write) => <PendingWrite desk={desk} write={write} />}
        />
      }
    />
  );
}

function PendingWrite({ desk, write }: { desk: DeskReaderHandle; write: CardWrite }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [busy, setBusy] = useState(false);
  // One key per reversal the cashier intends, kept across a retried click.
  const [reversalId] = useState(newIdempotencyKey);
  const onReader = desk.cardOnReader?.toUpperCase() === write.cardNo.toUpperCase();
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
      void queries.invalidateQueries({ queryKey: DESK_KEYS.all });
    }
  };
  const reason = t(`desk.pending.reason.${write.reason}`);
  return (
    <List.Item
      data-testid="desk-pending-write"
      data-state={write.state}
      actions={[
        <Button
          key="write"
          size="small"
          type="primary"
          loading={busy}
          disabled={!onReader}
          onClick={() => void run(() => desk.writeImage(write))}
        >
          {t('desk.pending.writeNow')}
        </Button>,
        write.state === 'pending' && (
          <Button
            key="giveUp"
            size="small"
            disabled={busy}
            onClick={() =>
              void run(() =>
                deskApi.confirmWrite({
                  writeId: write.id,
                  outcome: 'abandoned',
                  problem: write.problem ?? undefined,
                }),
              )
            }
          >
            {t('desk.pending.giveUp')}
          </Button>
        ),
        write.state === 'failed' && write.txnId && !write.reversalTxnId && (
          <Popconfirm
            key="reverse"
            title={t('desk.pending.reverseConfirm', {
              reason,
              amount: fenText(write.amountFen ?? 0),
            })}
            onConfirm={() =>
              run(() => deskApi.reverseWrite({ idempotencyKey: reversalId, writeId: write.id }))
            }
          >
            <Button size="small" danger disabled={busy}>
              {t('desk.pending.reverse')}
            </Button>
          </Popconfirm>
        ),
      ].filter(Boolean)}
    >
      <Space wrap>
        <Tag>{reason}</Tag>
        <Typography.Text>
          {write.cardNo}
          {write.householdName ? ` · ${write.householdName}` : ''}
        </Typography.Text>
        <Typography.Text type="secondary">
          {t('desk.pending.image', {
            balance: fenText(write.image.balanceFen),
            sequence: write.image.sequence,
          })}
        </Typography.Text>
        {write.state === 'failed' && <Tag color="orange">{t('desk.pending.abandoned')}</Tag>}
        {write.attempts > 0 && (
          <Typography.Text type="secondary">
            {t('desk.pending.attempts', { count: write.attempts, problem: write.problem ?? '' })}
          </Typography.Text>
        )}
      </Space>
    </List.Item>
  );
}
