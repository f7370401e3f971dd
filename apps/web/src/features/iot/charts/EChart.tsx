import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';

type EChartsInstance = EChartsType;

export interface EChartProps {
  option: EChartsCoreOption;
  height?: number;
  testId?: string;
}

/** ECharts is downloaded when the first chart is shown (never with the sign-in page). */
const loadEcharts = () => import('./echarts-setup').then((module) => module.echarts);

/** A chart that follows its option and its container's size. */
export function EChart({ option, height = 360, testId }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<EChartsInstance>();

  useEffect(() => {
    let disposed = false;
    let instance: EChartsInstance | undefined;
    let observer: ResizeObserver | undefined;
    void loadEcharts().then((echarts) => {
      if (disposed || !host.current) return;
      instance = echarts.init(host.current);
      observer = new ResizeObserver(() => instance?.resize());
      observer.observe(host.current);
      setChart(instance);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      instance?.dispose();
    };
  }, []);

  useEffect(() => {
    if (!chart) return;
    chart.setOption(option, { notMerge: true });
    // What the canvas cannot tell a test or an assistive tool: how many value axes it draws.
    const { yAxis } = chart.getOption() as { yAxis?: unknown[] };
    host.current?.setAttribute('data-y-axes', String(yAxis?.length ?? 0));
  }, [chart, option]);

  return (
    <div ref={host} style={{ width: '100%', height }} data-testid={testId} data-ready={!!chart} />
  );
}
