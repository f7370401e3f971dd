import type { WfInstanceState, WfNodeState } from '@shuili/contract';
import type { CSSProperties } from 'react';

/** How a run's node is drawn in each state (the details page's legend uses the same). */
export interface NodeStateLook {
  background: string;
  border: string;
  borderStyle: CSSProperties['borderStyle'];
  color: string;
  /** Pulsing, and its in-edges animated: work in progress. */
  animated: boolean;
  /** The antd Tag colour of the state in lists and panels. */
  tag: string;
}

const LOOKS: Record<WfNodeState, NodeStateLook> = {
  WAITING: {
    background: '#f5f5f5',
    border: '#bfbfbf',
    borderStyle: 'solid',
    color: '#595959',
    animated: false,
    tag: 'default',
  },
  RUNNING: {
    background: '#e6f4ff',
    border: '#1677ff',
    borderStyle: 'solid',
    color: '#003eb3',
    animated: true,
    tag: 'processing',
  },
  SUCCEED: {
    background: '#f6ffed',
    border: '#52c41a',
    borderStyle: 'solid',
    color: '#135200',
    animated: false,
    tag: 'success',
  },
  FAILED: {
    background: '#fff1f0',
    border: '#f5222d',
    borderStyle: 'solid',
    color: '#a8071a',
    animated: false,
    tag: 'error',
  },
  SKIPPED: {
    background: '#fafafa',
    border: '#d9d9d9',
    borderStyle: 'dotted',
    color: '#8c8c8c',
    animated: false,
    tag: 'default',
  },
  BLOCKED: {
    background: '#fff7e6',
    border: '#fa8c16',
    borderStyle: 'dashed',
    color: '#ad4e00',
    animated: false,
    tag: 'warning',
  },
  STOPPED: {
    background: '#434343',
    border: '#141414',
    borderStyle: 'solid',
    color: '#ffffff',
    animated: false,
    tag: 'default',
  },
};

/** The look of a node state (an unknown state from a newer server is drawn as waiting). */
export function nodeStateLook(state: WfNodeState | undefined): NodeStateLook {
  return (state && LOOKS[state]) || LOOKS.WAITING;
}

/** A run that can still change: polled every second while it is. */
export const isLiveInstance = (status: WfInstanceState | undefined) =>
  status === 'WAITING' || status === 'RUNNING';

/** Node states a user may mark successful (the node's successors then start). */
export const MARKABLE_NODE_STATES: readonly WfNodeState[] = ['FAILED', 'STOPPED'];

export const WF_INSTANCE_TAG: Record<WfInstanceState, string> = {
  WAITING: 'default',
  RUNNING: 'processing',
  FAILED: 'error',
  SUCCEED: 'success',
  STOPPED: 'default',
};
