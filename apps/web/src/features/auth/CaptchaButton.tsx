import { CAPTCHA } from '@shuili/contract';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface CaptchaButtonProps {
  /** Sends the code; resolves to the seconds before another may be sent, as the server says. */
  onSend: () => Promise<number | undefined>;
  label: string;
  testId?: string;
}

/** A "get code" button that counts down (60 s unless the server says otherwise) after sending. */
export function CaptchaButton({ onSend, label, testId }: CaptchaButtonProps) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((seconds) => seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const onClick = async () => {
    setSending(true);
    try {
      const resendIn = await onSend();
      setLeft(resendIn && resendIn > 0 ? resendIn : CAPTCHA.resendSeconds);
    } catch {
      // Validation or the http client already told the user what went wrong.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      data-testid={testId}
      loading={sending}
      disabled={left > 0}
      onClick={() => void onClick()}
    >
      {left > 0 ? t('captcha.resendIn', { seconds: left }) : label}
    </Button>
  );
}
