import {
  entityButtons,
  TOAST_MS,
  WATER_RIGHT_CALLS,
  waterRightEntity,
  type DistributeYear,
  type DistributeYearResult,
} from '@shuili/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../lib/feedback';
import { http } from '../../lib/http';
import { usePermission } from '../../core/permission';
import { ResourcePage } from '../../resource/ResourcePage';
import { resourceKey } from '../../resource/use-resource';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** Makes the year's missing water rights, from each household's area and crop quota. */
function DistributeYearButton() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<DistributeYear>();
  const submit = async ({ year }: DistributeYear) => {
    setSaving(true);
    try {
      const result = await http.post<DistributeYearResult>(WATER_RIGHT_CALLS.distributeYear, {
        data: { year },
      });
      feedback.success(t('billing.distribute.done', { ...result, year }), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: resourceKey(waterRightEntity) });
      setOpen(false);
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="distribute-year">
        {t('billing.distribute.button')}
      </Button>
      <Modal
        open={open}
        title={t('billing.distribute.title')}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        confirmLoading={saving}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('billing.distribute.help')}</Typography.Paragraph>
        <Form
          form={form}
          layout="vertical"
          initialValues={{ year: new Date().getFullYear() }}
          onFinish={(values) => void submit(values)}
          data-testid="distribute-year-form"
        >
          <Form.Item name="year" label={t('billing.distribute.year')} rules={[{ required: true }]}>
            <InputNumber min={2000} max={2100} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/**
 * Spec /skgg/distribution: each household's yearly water right (quota in m³, by default its
 * irrigated area × its crop class's quota per mu, editable), with what it used and what remains
 * this year; "distribute year" makes the year's rows of every household lacking one.
 */
export function WaterRightPage(_props: AreaScreenProps) {
  // Distributing makes rows: whoever may add one may distribute (the server checks the call).
  const mayDistribute = usePermission(entityButtons(waterRightEntity).add);
  return (
    <ResourcePage
      entity={waterRightEntity}
      toolbarExtra={mayDistribute ? <DistributeYearButton /> : null}
    />
  );
}
