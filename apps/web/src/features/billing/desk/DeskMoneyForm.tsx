import { TOAST_MS, type DeskResult } from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Radio, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '../../../lib/form-errors';
import { feedback } from '../../../lib/feedback';
import { HttpError } from '../../../lib/http';
import { deskApi, DESK_KEYS, newIdempotencyKey } from './desk-api';
import { fenOf, fenText } from './desk-money';
import { DeskReceipt } from './DeskReceipt';
import type { DeskReaderHandle, WriteOutcome } from './use-desk-reader';
import type { useDeskCard } from './useDeskCard';
import { WriteOutcomeAlert } from './WriteOutcomeAlert';

interface Values {
  amount: string;
  method: 'cash' | 'online';
  externalRef?: string;
}

const FORM_FIELDS = ['amount', 'method', 'externalRef'];

/**
 * Money at the desk: a recharge (cash or online with its reference) or a refund of what is
 * available, posted once whatever the retries (a request id made when the cashier starts and
 * reused until the server has answered), then written to the card (write after commit), with
 * a printable receipt.
 */
export function DeskMoneyForm({
  kind,
  desk,
  card,
}: {
  kind: 'recharge' | 'refund';
  desk: DeskReaderHandle;
  card: ReturnType<typeof useDeskCard>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const queries = useQueryClient();
  const idempotencyKey = useRef(newIdempotencyKey());
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ result: DeskResult; at: Date; method?: string }>();
  const [outcome, setOutcome] = useState<WriteOutcome | 'writing'>();
  const method = Form.useWatch('method', form);
  const data = card.query.data;
  const onReader = desk.reader.card;
  const readerHoldsIt =
    !!onReader && !!data && desk.cardOnReader?.toUpperCase() === data.card.cardNo.toUpperCase();
  const bound = data?.card.cardState === 'bound';

  const submit = async (values: Values) => {
    if (!data || !onReader) return;
    const amountFen = fenOf(values.amount);
    if (amountFen === undefined) return;
    setBusy(true);
    setOutcome(undefined);
    try {
      const common = {
        idempotencyKey: idempotencyKey.current,
        cardNo: data.card.cardNo,
        amountFen,
        cardSequence: onReader.sequence,
        reader: desk.deskReader,
      };
      const result =
        kind === 'recharge'
          ? await deskApi.recharge({
              ...common,
              method: values.method,
              ...(values.method === 'online' ? { externalRef: values.externalRef } : {}),
            })
          : await deskApi.refund(common);
      // Answered: the next operation is another one, with a key of its own.
      idempotencyKey.current = newIdempotencyKey();
      setDone({
        result,
        at: new Date(),
        ...(kind === 'recharge' ? { method: t(`desk.money.${values.method}`) } : {}),
      });
      form.resetFields(['amount', 'externalRef']);
      if (result.write) {
        setOutcome('writing');
        setOutcome(await desk.writeImage(result.write));
      }
    } catch (error) {
      // The server names the amount amountFen; the form's field is the yuan typed.
      if (error instanceof HttpError) {
        const fields = error.fieldErrors.map((problem) =>
          problem.field === 'amountFen' ? { ...problem, field: 'amount' } : problem,
        );
        const unplaced = applyFieldErrors(form, fields, FORM_FIELDS);
        if (unplaced.length > 0)
          feedback.error(
            unplaced.map((problem) => problem.message).join('; '),
            TOAST_MS.error / 1000,
          );
      }
      // A refusal posted nothing: the corrected request is a new operation. Without an answer
      // (network, server down) the key is kept, so trying again cannot post twice.
      if (error instanceof HttpError && error.status >= 400 && error.status < 500)
        idempotencyKey.current = newIdempotencyKey();
    } finally {
      setBusy(false);
      void queries.invalidateQueries({ queryKey: DESK_KEYS.all });
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {data && !bound && <Alert type="warning" showIcon title={t('desk.money.notBound')} />}
      {data && bound && !readerHoldsIt && (
        <Alert type="info" showIcon title={t('desk.money.needCard')} />
      )}
      {kind === 'refund' && data?.balance && (
        <Typography.Text data-testid="desk-refundable">
          {t('desk.money.refundable', { amount: fenText(data.balance.availableFen) })}
        </Typography.Text>
      )}
      <Form<Values>
        form={form}
        layout="inline"
        initialValues={{ method: 'cash' }}
        onFinish={(values) => void submit(values)}
        onValuesChange={() => {
          // Another amount or method is another operation: it gets its own key.
          if (!busy) idempotencyKey.current = newIdempotencyKey();
        }}
        data-testid={`desk-${kind}-form`}
      >
        <Form.Item
          name="amount"
          label={t('desk.money.amount')}
          rules={[
            { required: true, message: t('desk.money.amount') },
            {
              validator: (_rule, value: string) =>
                !value || (fenOf(value) ?? 0) > 0
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('desk.money.amount'))),
            },
          ]}
        >
          <Input data-testid="desk-amount" inputMode="decimal" style={{ width: 140 }} />
        </Form.Item>
        {kind === 'recharge' && (
          <Form.Item name="method" label={t('desk.money.method')}>
            <Radio.Group
              options={[
                { value: 'cash', label: t('desk.money.cash') },
                { value: 'online', label: t('desk.money.online') },
              ]}
            />
          </Form.Item>
        )}
        {kind === 'recharge' && method === 'online' && (
          <Form.Item
            name="externalRef"
            label={t('desk.money.externalRef')}
            rules={[{ required: true, message: t('desk.money.externalRef') }]}
          >
            <Input data-testid="desk-external-ref" maxLength={128} />
          </Form.Item>
        )}
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            loading={busy}
            disabled={!bound || !readerHoldsIt}
            data-testid={`desk-${kind}-submit`}
          >
            {t(`desk.money.${kind}`)}
          </Button>
        </Form.Item>
      </Form>
      <WriteOutcomeAlert outcome={outcome} />
      {done && (
        <DeskReceipt
          kind={kind}
          result={done.result}
          householdName={data?.household?.householdName}
          method={done.method}
          outcome={outcome}
          at={done.at}
        />
      )}
    </Space>
  );
}
