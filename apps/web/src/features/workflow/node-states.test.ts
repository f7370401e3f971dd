import { WF_NODE_STATES } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { isLiveInstance, MARKABLE_NODE_STATES, nodeStateLook } from './node-states';

describe('node state colours', () => {
  it('draws each state in its own colour, running animated, blocked dashed', () => {
    const borders = new Set(WF_NODE_STATES.map((state) => nodeStateLook(state).border));
    expect(borders.size).toBe(WF_NODE_STATES.length);
    expect(nodeStateLook('SUCCEED').border).toBe('#52c41a');
    expect(nodeStateLook('FAILED').border).toBe('#f5222d');
    expect(nodeStateLook('RUNNING').border).toBe('#1677ff');
    expect(WF_NODE_STATES.filter((state) => nodeStateLook(state).animated)).toEqual(['RUNNING']);
    expect(nodeStateLook('BLOCKED').borderStyle).toBe('dashed');
  });

  it('draws an unknown state as waiting', () => {
    expect(nodeStateLook(undefined)).toEqual(nodeStateLook('WAITING'));
    expect(nodeStateLook('NEW' as never)).toEqual(nodeStateLook('WAITING'));
  });

  it('polls only runs that have not ended, and marks only failed or stopped nodes', () => {
    expect(['WAITING', 'RUNNING'].every((state) => isLiveInstance(state as never))).toBe(true);
    expect(['SUCCEED', 'FAILED', 'STOPPED'].some((state) => isLiveInstance(state as never))).toBe(
      false,
    );
    expect(MARKABLE_NODE_STATES).toEqual(['FAILED', 'STOPPED']);
  });
});
