import { MOBILE_BREAKPOINT_PX } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { antdSizeOf, isMobileWidth, sidebarOpenedFrom, sizeFrom } from './app-state';

describe('sidebar cookie', () => {
  it('reads 1 as open and 0 as closed, and opens by default', () => {
    expect(sidebarOpenedFrom('1')).toBe(true);
    expect(sidebarOpenedFrom('0')).toBe(false);
    expect(sidebarOpenedFrom(undefined)).toBe(true);
    expect(sidebarOpenedFrom('')).toBe(true);
  });
});

describe('size', () => {
  it('takes a known size from the cookie, else medium', () => {
    expect(sizeFrom('mini')).toBe('mini');
    expect(sizeFrom('default')).toBe('default');
    expect(sizeFrom(undefined)).toBe('medium');
    expect(sizeFrom('huge')).toBe('medium');
  });

  it('maps the four sizes onto Ant Design, each smaller than the one before', () => {
    expect(antdSizeOf('default')).toEqual({ componentSize: 'large', compact: false });
    expect(antdSizeOf('medium')).toEqual({ componentSize: 'middle', compact: false });
    expect(antdSizeOf('small')).toEqual({ componentSize: 'small', compact: false });
    expect(antdSizeOf('mini')).toEqual({ componentSize: 'small', compact: true });
  });
});

describe('mobile mode', () => {
  it('starts when the body width minus 1 is below the breakpoint', () => {
    expect(isMobileWidth(992, MOBILE_BREAKPOINT_PX)).toBe(true);
    expect(isMobileWidth(993, MOBILE_BREAKPOINT_PX)).toBe(false);
    expect(isMobileWidth(800, MOBILE_BREAKPOINT_PX)).toBe(true);
  });
});
