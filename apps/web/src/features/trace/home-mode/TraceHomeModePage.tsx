import { ExportOutlined } from '@ant-design/icons';
import {
  PUBLIC_TRACE_PAGES,
  PUBLIC_TRACE_SECTIONS,
  TOAST_MS,
  TRACE_PAGE_CONTACT_MAX,
  TRACE_PAGE_SETTING_CALLS,
  TRACE_PAGE_TITLE_MAX,
  type PublicTrace,
  type TracePageSetting,
} from '@shuili/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Empty,
  Flex,
  Form,
  Input,
  Select,
  Space,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';
import { reportFormError } from '../../../lib/form-errors';
import { http, HttpError } from '../../../lib/http';
import type { AreaScreenProps } from '../../monitor/screens/area-screen-props';
import { ColorField } from './ColorField';
import { LogoField } from './LogoField';
import { PublicPagePreview } from './PublicPagePreview';
import {
  DEFAULT_VALUES,
  FORM_FIELDS,
  inputOf,
  valuesOf,
  type PageSettingValues,
} from './page-setting-values';

const SETTING_KEY = ['trace', 'pageSetting'] as const;
/** How long typing settles before the preview asks the server again. */
const PREVIEW_DELAY_MS = 400;

/** Field errors of a save: `sections.*` belongs to the sections' checkboxes. */
function onForm(error: unknown): unknown {
  if (!(error instanceof HttpError)) return error;
  const fieldErrors = error.fieldErrors.map((one) =>
    one.field.startsWith('sections') ? { ...one, field: 'shown' } : one,
  );
  return Object.assign(Object.create(HttpError.prototype) as HttpError, error, { fieldErrors });
}

/**
 * Spec /traceabilitySystem/traceHomeMode (administrators only): what the public page /traceHome
 * shows and its look for this tenant (title, colour, logo, sections, contact line), beside a
 * preview at a phone's width of one of the tenant's codes as a consumer will see it once saved.
 */
export function TraceHomeModePage(_props: AreaScreenProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PageSettingValues>();
  // What the form holds once changed (before: the loaded settings), and after typing pauses.
  const [edited, setDraft] = useState<PageSettingValues>();
  const [settled, setSettled] = useState<PageSettingValues>();
  const [picked, setCode] = useState<string>();
  const [saving, setSaving] = useState(false);

  const setting = useQuery({
    queryKey: SETTING_KEY,
    queryFn: () => http.get<TracePageSetting>(TRACE_PAGE_SETTING_CALLS.query),
  });
  const loaded = setting.data;
  useEffect(() => {
    if (loaded) form.setFieldsValue(valuesOf(loaded));
  }, [loaded, form]);
  const code = picked ?? loaded?.previewCodes[0]?.code;

  // The preview follows the form once typing pauses.
  useEffect(() => {
    if (!edited) return undefined;
    const timer = setTimeout(() => setSettled(edited), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [edited]);
  const shownValues = settled ?? (loaded ? valuesOf(loaded) : DEFAULT_VALUES);
  const previewInput = { ...inputOf(shownValues), code };
  const preview = useQuery({
    queryKey: [...SETTING_KEY, 'preview', previewInput],
    queryFn: () =>
      http.post<PublicTrace>(TRACE_PAGE_SETTING_CALLS.preview, {
        data: previewInput,
        silent: true,
      }),
    enabled: loaded !== undefined && code !== undefined,
    placeholderData: (previous) => previous,
    retry: false,
  });

  const save = async (values: PageSettingValues) => {
    setSaving(true);
    try {
      await http.post(TRACE_PAGE_SETTING_CALLS.save, {
        data: inputOf(values),
        quietFieldErrors: true,
      });
      feedback.success(t('trace.homeMode.saved'), TOAST_MS.success / 1000);
      await queryClient.invalidateQueries({ queryKey: SETTING_KEY });
    } catch (error) {
      reportFormError(form, onForm(error), FORM_FIELDS);
    } finally {
      setSaving(false);
    }
  };

  const reset = () =>
    feedback.confirm({
      title: t('trace.homeMode.resetConfirm'),
      content: t('trace.homeMode.resetHint'),
      okText: t('trace.homeMode.reset'),
      okButtonProps: { danger: true, 'data-testid': 'home-mode-reset-confirm' } as never,
      onOk: async () => {
        await http.post(TRACE_PAGE_SETTING_CALLS.reset);
        form.setFieldsValue(DEFAULT_VALUES);
        setDraft(DEFAULT_VALUES);
        feedback.success(t('trace.homeMode.resetDone'), TOAST_MS.success / 1000);
        await queryClient.invalidateQueries({ queryKey: SETTING_KEY });
      },
    });

  const codes = loaded?.previewCodes ?? [];
  const previewError = preview.error instanceof HttpError ? preview.error.message : undefined;

  return (
    <Flex gap={24} wrap align="flex-start" data-testid="home-mode">
      <Card
        title={t('trace.homeMode.formTitle')}
        style={{ flex: '1 1 420px', maxWidth: 640 }}
        loading={setting.isPending}
      >
        <Form<PageSettingValues>
          form={form}
          layout="vertical"
          initialValues={DEFAULT_VALUES}
          onValuesChange={(_changed, all) => setDraft({ ...DEFAULT_VALUES, ...all })}
          onFinish={(values) => void save(values)}
        >
          <Form.Item
            name="title"
            label={t('trace.homeMode.title')}
            extra={t('trace.homeMode.titleHint')}
          >
            <Input
              maxLength={TRACE_PAGE_TITLE_MAX}
              showCount
              placeholder={t('trace.homeMode.titlePlaceholder')}
              data-testid="home-mode-title"
            />
          </Form.Item>
          <Form.Item name="color" label={t('trace.homeMode.color')}>
            <ColorField />
          </Form.Item>
          <Form.Item
            name="logo"
            label={t('trace.homeMode.logo')}
            extra={t('trace.homeMode.logoHint')}
          >
            <LogoField />
          </Form.Item>
          <Form.Item name="shown" label={t('trace.homeMode.sections')}>
            <Checkbox.Group data-testid="home-mode-sections">
              <Flex vertical gap={4}>
                {PUBLIC_TRACE_SECTIONS.map((section) => (
                  <Checkbox
                    key={section}
                    value={section}
                    data-testid={`home-mode-section-${section}`}
                  >
                    {t(`trace.homeMode.section.${section}`)}
                  </Checkbox>
                ))}
              </Flex>
            </Checkbox.Group>
          </Form.Item>
          <Form.Item name="contact" label={t('trace.homeMode.contact')}>
            <Input
              maxLength={TRACE_PAGE_CONTACT_MAX}
              placeholder={t('trace.homeMode.contactPlaceholder')}
              data-testid="home-mode-contact"
            />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="home-mode-save">
              {t('trace.homeMode.save')}
            </Button>
            <Button onClick={reset} data-testid="home-mode-reset">
              {t('trace.homeMode.reset')}
            </Button>
          </Space>
          {loaded?.updatedAt && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
              {t('trace.homeMode.updatedAt', {
                at: new Date(loaded.updatedAt).toLocaleString(),
              })}
            </Typography.Paragraph>
          )}
        </Form>
      </Card>
      <Card
        title={t('trace.homeMode.preview')}
        style={{ flex: '0 0 auto' }}
        extra={
          code && (
            <a
              href={`${PUBLIC_TRACE_PAGES.home}?code=${encodeURIComponent(code)}`}
              target="_blank"
              rel="noreferrer"
              data-testid="home-mode-open"
            >
              <ExportOutlined /> {t('trace.homeMode.open')}
            </a>
          )
        }
      >
        {codes.length === 0 && !setting.isPending ? (
          <Empty description={t('trace.homeMode.noCodes')} style={{ width: 376 }} />
        ) : (
          <Flex vertical gap={12} style={{ width: 376 }}>
            <Select
              value={code}
              onChange={setCode}
              aria-label={t('trace.homeMode.previewCode')}
              data-testid="home-mode-code"
              options={codes.map((one) => ({
                value: one.code,
                label: [one.cropName, one.lot, one.code].filter(Boolean).join(' · '),
              }))}
            />
            <Typography.Text type="secondary">{t('trace.homeMode.previewHint')}</Typography.Text>
            {previewError && <Alert type="warning" showIcon message={previewError} />}
            <PublicPagePreview trace={preview.data} />
          </Flex>
        )}
      </Card>
    </Flex>
  );
}
