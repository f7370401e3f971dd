import { DisconnectOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { reconnectLive } from './live-connection';
import { useLiveStore } from './live-store';

/**
 * The navbar's sign of a dropped live connection (spec §1: no automatic reconnect): the user sees
 * that live values have stopped and reconnects with one click. Hidden while all is well.
 */
export function LiveReconnectButton() {
  const { t } = useTranslation();
  const status = useLiveStore((state) => state.status);
  const reason = useLiveStore((state) => state.reason);
  // A reconnect in progress keeps the control in place (spinning) until it succeeds.
  const dropped = useLiveStore((state) => state.dropped);
  if (!dropped) return null;
  return (
    <Tooltip title={reason ? t('live.disconnectedBecause', { reason }) : t('live.disconnected')}>
      <Button
        danger
        type="text"
        size="small"
        icon={<DisconnectOutlined />}
        loading={status === 'connecting'}
        onClick={reconnectLive}
        data-testid="live-reconnect"
      >
        {t('live.reconnect')}
      </Button>
    </Tooltip>
  );
}
