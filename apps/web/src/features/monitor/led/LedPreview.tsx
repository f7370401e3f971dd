import type { LedPage } from '@shuili/contract';
import { Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LedCanvas } from './LedCanvas';
import { useLiveValues } from './use-live-values';

/**
 * The program as a screen plays it: each page for its duration, then the next, round and round,
 * its live values read from the bound devices as they report.
 */
export function LedPreview({
  pages,
  width,
  height,
  scale,
}: {
  pages: readonly LedPage[];
  width: number;
  height: number;
  scale: number;
}) {
  const { t } = useTranslation();
  const values = useLiveValues(pages);
  const [index, setIndex] = useState(0);
  const shown = pages.length ? index % pages.length : 0;
  const seconds = pages[shown]?.durationSeconds ?? 10;
  useEffect(() => {
    const timer = setTimeout(() => setIndex((current) => current + 1), seconds * 1000);
    return () => clearTimeout(timer);
  }, [index, seconds]);

  return (
    <div data-testid="led-preview" data-page={shown}>
      <LedCanvas page={pages[shown]} width={width} height={height} scale={scale} values={values} />
      <Typography.Text type="secondary">
        {t('monitor.led.previewPage', { page: shown + 1, pages: pages.length, seconds })}
      </Typography.Text>
    </div>
  );
}
