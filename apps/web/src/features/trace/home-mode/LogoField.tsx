import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { TRACE_PAGE_LOGO_MAX_BYTES, TRACE_PAGE_LOGO_TYPES } from '@shuili/contract';
import { Button, Flex, Input, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../../lib/feedback';

const TOAST_SECONDS = 5;

/**
 * The page's logo: an uploaded image (kept inline as data:…, at most 16 KB: the page shows it at
 * 32 px) or a path on this server typed in. The server checks both again when saving.
 */
export function LogoField({
  value,
  onChange,
}: {
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  const inline = value?.startsWith('data:') ?? false;
  const pick = (file: File) => {
    if (!(TRACE_PAGE_LOGO_TYPES as readonly string[]).includes(file.type)) {
      feedback.error(t('trace.homeMode.logoType'), TOAST_SECONDS);
      return;
    }
    if (file.size > TRACE_PAGE_LOGO_MAX_BYTES) {
      feedback.error(
        t('trace.homeMode.logoTooLarge', { max: TRACE_PAGE_LOGO_MAX_BYTES / 1024 }),
        TOAST_SECONDS,
      );
      return;
    }
    const reader = new FileReader();
    reader.onload = () => onChange?.(String(reader.result));
    reader.readAsDataURL(file);
  };
  return (
    <Flex gap={8} align="center" wrap>
      {value && (
        <img
          src={inline || value.startsWith('/') ? value : undefined}
          alt={t('trace.homeMode.logo')}
          width={32}
          height={32}
          data-testid="home-mode-logo-image"
          style={{ borderRadius: 4, objectFit: 'contain', background: '#f5f5f5' }}
        />
      )}
      <Upload
        accept={TRACE_PAGE_LOGO_TYPES.join(',')}
        showUploadList={false}
        beforeUpload={(file) => {
          pick(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} data-testid="home-mode-logo-upload">
          {t('trace.homeMode.logoUpload')}
        </Button>
      </Upload>
      <Input
        style={{ width: 220 }}
        value={inline ? '' : (value ?? '')}
        placeholder={inline ? t('trace.homeMode.logoUploaded') : t('trace.homeMode.logoPath')}
        onChange={(event) => onChange?.(event.target.value)}
        data-testid="home-mode-logo-path"
        aria-label={t('trace.homeMode.logoPath')}
      />
      {value && (
        <Button
          icon={<DeleteOutlined />}
          onClick={() => onChange?.('')}
          data-testid="home-mode-logo-remove"
          aria-label={t('trace.homeMode.logoRemove')}
        />
      )}
    </Flex>
  );
}
