import type { TraceMapPlot } from '@shuili/contract';

/** A plot's colour by its newest planting's state; a plot with none is idle. */
export type PlotState = 'growing' | 'harvested' | 'ended' | 'idle';

export const PLOT_STATE_COLOR: Record<PlotState, string> = {
  growing: '#52c41a',
  harvested: '#faad14',
  ended: '#8c8c8c',
  idle: '#1677ff',
};

/** The state a plot is drawn in: its newest planting's, or idle. */
export const plotState = (plot: TraceMapPlot): PlotState => stateOf(plot.plantings[0]?.state);

/** A planting's state as drawn (an unknown word draws idle). */
export const stateOf = (state: string | undefined): PlotState =>
  state && state in PLOT_STATE_COLOR ? (state as PlotState) : 'idle';
