import { MarkAreaComponent, MarkLineComponent, PolarComponent } from 'echarts/components';
import * as echarts from 'echarts/core';

// What the area panels draw beyond the device page's charts (iot/charts/echarts-setup): reference
// lines (dry-run level, targets, field capacity), target bands and the wind rose's polar axes.
// Imported by the chart widgets only, so these parts travel in their chunks.
echarts.use([MarkLineComponent, MarkAreaComponent, PolarComponent]);

/** A reference line's look: dashed, labelled at its end, not hoverable. */
export function referenceLine(name: string, color: string, at: { xAxis?: number; yAxis?: number }) {
  return {
    name,
    ...at,
    lineStyle: { type: 'dashed' as const, color, width: 1.5 },
    label: { formatter: name, color, position: 'insideEndTop' as const },
  };
}
