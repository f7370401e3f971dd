import { HOUSEHOLD_TARGET, type DeskResult } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Popconfirm, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../../core/session-store';
import { HttpError } from '../../../lib/http';
import type { LabeledValue } from '../../../resource/form-values';
import { RefSelect } from '../../../resource/RefSelect';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { cardReaderErrorText } from '../reader/card-reader-text';
import { CardReaderStatus } from '../reader/CardReaderStatus';
import { deskApi, DESK_KEYS, newIdempotencyKey } from './desk-api';
import { fenText } from './desk-money';
import { DeskCardPanel } from './DeskCardPanel';
import { useDeskReader, type WriteOutcome } from './use-desk-reader';
import { useDeskCard } from './useDeskCard';
import { WriteOutcomeAlert } from './WriteOutcomeAlert';

/**
 * Spec /skgg/binding: a card read on the reader or typed, with its household and money; write a
 * registered card's identity onto a blank card, bind it to a household, report it lost, replace
 * a lost card by a new one (which is then written with the balance), cancel and reclaim.
 */
export function DeskBindingPage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const card = useDeskCard(desk);
  const queries = useQueryClient();
  const tenantCode = useSessionStore((state) => state.user?.tenantCode);
  const [household, setHousehold] = useState<LabeledValue | undefined>();
  const [replacing, setReplacing] = useState<string>();
  const [newCardNo, setNewCardNo] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ type: 'success' | 'error'; text: string }>();
  const [outcome, setOutcome] = useState<WriteOutcome | 'writing'>();
  // One key per intended operation, reused when the cashier clicks again after no answer.
  const pending = useRef(new Map<string, string>());
  const keyFor = (operation: string) => {
    let key = pending.current.get(operation);
    if (!key) pending.current.set(operation, (key = newIdempotencyKey()));
    return key;
  };

  const data = card.query.data;
  const onReader = desk.reader.card;
  const readerHoldsIt =
    !!onReader && !!data && desk.cardOnReader?.toUpperCase() === data.card.cardNo.toUpperCase();

  const act = async (
    operation: string,
    work: (idempotencyKey: string) => Promise<string | void>,
  ) => {
    setBusy(true);
    setNotice(undefined);
    setOutcome(undefined);
    try {
      const text = await work(keyFor(operation));
      pending.current.delete(operation);
      if (text) setNotice({ type: 'success', text });
    } catch (error) {
      if (error instanceof HttpError && error.status < 500) pending.current.delete(operation);
      setNotice({
        type: 'error',
        text: error instanceof HttpError ? error.message : cardReaderErrorText(t, error),
      });
    } finally {
      setBusy(false);
      void queries.invalidateQueries({ queryKey: DESK_KEYS.all });
    }
  };

  const writeAfter = async (result: DeskResult) => {
    if (!result.write) return;
    if (!desk.reader.card) return setOutcome({ written: false, problem: 'NO_CARD' });
    setOutcome('writing');
    setOutcome(await desk.writeImage(result.write));
  };

  const issue = () =>
    act('issue', async () => {
      if (!onReader || !data || !tenantCode) return;
      await desk.reader.issueCard({
        uid: onReader.uid,
        tenantCode,
        cardNo: data.card.cardNo,
        cardType: data.card.cardType as 'user',
      });
      return t('desk.issue.done', { cardNo: data.card.cardNo });
    });

  const bind = () =>
    act(`bind:${data?.card.cardNo}:${household?.value}`, async (idempotencyKey) => {
      if (!data || !household) return;
      const result = await deskApi.bind({
        idempotencyKey,
        cardNo: data.card.cardNo,
        householdId: String(household.value),
        reader: desk.deskReader,
      });
      return t('desk.binding.bound', { cardNo: result.cardNo });
    });

  const reportLost = () =>
    act(`lost:${data?.card.cardNo}`, async (idempotencyKey) => {
      if (!data) return;
      const result = await deskApi.reportLost({
        idempotencyKey,
        cardNo: data.card.cardNo,
        reader: desk.deskReader,
      });
      return t('desk.binding.lost', { cardNo: result.cardNo });
    });

  const reclaim = () =>
    act(`reclaim:${data?.card.cardNo}`, async (idempotencyKey) => {
      if (!data) return;
      const result = await deskApi.reclaim({
        idempotencyKey,
        cardNo: data.card.cardNo,
        reader: desk.deskReader,
      });
      // The reclaimed card on the reader is blanked, so it can be issued again.
      if (readerHoldsIt && onReader?.issued)
        await desk.reader
          .eraseCard({ uid: onReader.uid, expectedSequence: onReader.sequence })
          .catch(() => undefined);
      return t('desk.binding.reclaimed', {
        cardNo: result.cardNo,
        amount: fenText(result.amountFen ?? 0),
      });
    });

  const replace = (lostCardNo: string, target: string) =>
    act(`replace:${lostCardNo}:${target}`, async (idempotencyKey) => {
      let sequence = 0;
      const fresh = desk.reader.card;
      const freshOnReader = fresh && desk.cardOnReader?.toUpperCase() === target;
      // A blank new card gets its identity first; its purse then starts at sequence 0.
      if (fresh && freshOnReader && !fresh.issued && tenantCode)
        await desk.reader.issueCard({
          uid: fresh.uid,
          tenantCode,
          cardNo: target,
          cardType: 'user',
        });
      else if (fresh && freshOnReader) sequence = fresh.sequence;
      const result = await deskApi.replace({
        idempotencyKey,
        lostCardNo,
        newCardNo: target,
        cardSequence: sequence,
        reader: desk.deskReader,
      });
      setReplacing(undefined);
      card.setCardNo(result.cardNo);
      await writeAfter(result);
      return t('desk.binding.replaced', {
        cardNo: result.cardNo,
        balance: fenText(result.balance?.availableFen ?? 0),
      });
    });

  const state = data?.card.cardState;
  // The new card of a replacement: the one placed on the reader, unless typed.
  const suggested = desk.cardOnReader && desk.cardOnReader !== replacing ? desk.cardOnReader : '';
  const blankOnReader = !!onReader && !onReader.issued && readerHoldsIt;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="desk-binding-page">
      <CardReaderStatus />
      <DeskCardPanel desk={desk} card={card} />
      {data && (
        <Card size="small" title={t('desk.binding.title')}>
          <Space orientation="vertical" style={{ width: '100%' }}>
            {blankOnReader && state !== 'cancelled' && (
              <Alert
                type="info"
                showIcon
                title={t('desk.issue.blank')}
                action={
                  <Button
                    size="small"
                    onClick={() => void issue()}
                    loading={busy}
                    data-testid="desk-issue"
                  >
                    {t('desk.issue.write')}
                  </Button>
                }
              />
            )}
            {state === 'registered' && data.card.cardType === 'user' && (
              <Space wrap>
                <Typography.Text>{t('desk.binding.bindTo')}</Typography.Text>
                <div style={{ width: 280 }} data-testid="desk-bind-household">
                  <RefSelect
                    target={HOUSEHOLD_TARGET}
                    value={household ?? null}
                    onChange={(value) => setHousehold(value as LabeledValue | undefined)}
                  />
                </div>
                <Button
                  type="primary"
                  disabled={!household}
                  loading={busy}
                  onClick={() => void bind()}
                  data-testid="desk-bind"
                >
                  {t('desk.binding.bind')}
                </Button>
              </Space>
            )}
            <Space wrap>
              {state === 'bound' && (
                <Popconfirm
                  title={t('desk.binding.reportLostConfirm', { cardNo: data.card.cardNo })}
                  onConfirm={() => reportLost()}
                >
                  <Button danger loading={busy} data-testid="desk-report-lost">
                    {t('desk.binding.reportLost')}
                  </Button>
                </Popconfirm>
              )}
              {state === 'lost' && (
                <Button
                  type="primary"
                  onClick={() => {
                    setReplacing(data.card.cardNo);
                    setNewCardNo('');
                  }}
                  data-testid="desk-replace"
                >
                  {t('desk.binding.replace')}
                </Button>
              )}
              {(state === 'bound' || state === 'lost' || state === 'registered') && (
                <Popconfirm
                  title={t('desk.binding.reclaimConfirm', { cardNo: data.card.cardNo })}
                  onConfirm={() => reclaim()}
                >
                  <Button loading={busy} data-testid="desk-reclaim">
                    {t('desk.binding.reclaim')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          </Space>
        </Card>
      )}
      {replacing && (
        <Card size="small" title={t('desk.replaces', { cardNo: replacing })}>
          <Space wrap>
            <Typography.Text>{t('desk.binding.newCardNo')}</Typography.Text>
            <Input
              data-testid="desk-new-card-no"
              value={newCardNo || suggested}
              onChange={(event) => setNewCardNo(event.target.value)}
              style={{ width: 220 }}
            />
            <Button
              type="primary"
              loading={busy}
              onClick={() => void replace(replacing, (newCardNo || suggested).trim().toUpperCase())}
              data-testid="desk-replace-submit"
            >
              {t('desk.binding.replace')}
            </Button>
          </Space>
        </Card>
      )}
      {notice && (
        <Alert
          type={notice.type}
          showIcon
          title={notice.text}
          data-testid={`desk-notice-${notice.type}`}
        />
      )}
      <WriteOutcomeAlert outcome={outcome} />
    </Space>
  );
}
