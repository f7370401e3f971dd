import { Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { formatAge, isStale } from './reading-age';
import styles from './ReadingFreshness.module.css';
import type { Reading } from './thing-value';

/** How long a changed value stays highlighted. */
const CHANGED_MS = 3000;

/** True for a while after the value changes (not when the first value arrives). */
function useChanged(value: unknown): boolean {
  const [changed, setChanged] = useState(false);
  const previous = useRef(value);
  useEffect(() => {
    if (Object.is(previous.current, value)) return undefined;
    const first = previous.current === undefined;
    previous.current = value;
    if (first) return undefined;
    setChanged(true);
    const timer = setTimeout(() => setChanged(false), CHANGED_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return changed;
}

export interface FreshValueProps {
  reading: Reading | undefined;
  /** The product's reporting interval: a value older than it (and then some) is greyed. */
  reportIntervalMs: number;
  children: ReactNode;
}

/** A tile's value: highlighted briefly when it changes, greyed once the device is overdue. */
export function FreshValue({ reading, reportIntervalMs, children }: FreshValueProps) {
  const now = useNow();
  const changed = useChanged(reading?.value);
  const stale = reading ? isStale(reading.ts, now, reportIntervalMs) : false;
  const className = [changed && styles.changed, stale && styles.stale].filter(Boolean).join(' ');
  return (
    <div
      className={className || undefined}
      style={{ fontSize: 22, fontWeight: 500 }}
      data-testid="live-value-text"
      data-changed={changed}
      data-stale={stale}
    >
      {children}
    </div>
  );
}

/** How old a tile's value truly is ("12 s ago"), kept current every second. */
export function ReadingAge({ reading }: { reading: Reading | undefined }) {
  const { t } = useTranslation();
  const now = useNow();
  if (!reading) {
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('iot.device.noValue')}
      </Typography.Text>
    );
  }
  return (
    <Tooltip title={formatDate(reading.ts)}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="live-value-age">
        {formatAge(reading.ts, now, t)}
      </Typography.Text>
    </Tooltip>
  );
}
