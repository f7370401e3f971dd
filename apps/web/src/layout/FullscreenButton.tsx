import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { TOAST_MS } from '@shuili/contract';
import { Button, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../lib/feedback';

/** Spec §2 fullscreen toggle; browsers without the Fullscreen API get spec §8's warning. */
export function FullscreenButton() {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => Boolean(document.fullscreenElement));

  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const onClick = () => {
    if (!document.fullscreenEnabled) {
      feedback.warning(t('navbar.fullscreenUnsupported'), TOAST_MS.warning / 1000);
      return;
    }
    const change = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    // A refusal (no user gesture, a policy) leaves the page as it is.
    void change.catch(() => undefined);
  };

  const label = full ? t('navbar.exitFullscreen') : t('navbar.fullscreen');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        aria-label={label}
        icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
        onClick={onClick}
        data-testid="fullscreen"
      />
    </Tooltip>
  );
}
