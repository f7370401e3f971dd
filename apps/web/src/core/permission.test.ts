import { describe, expect, it } from 'vitest';
import { mayPress } from './permission';

describe('mayPress', () => {
  it('lets ROLE_ADMIN as the active role press every button', () => {
    expect(mayPress('sysuser:add', [], 'ROLE_ADMIN')).toBe(true);
  });

  it('lets other roles press only the buttons the authority call listed', () => {
    const buttons = ['sysuser:add', 'sysuser:edit'];
    expect(mayPress('sysuser:add', buttons, 'ROLE_OPERATOR')).toBe(true);
    expect(mayPress('sysuser:delete', buttons, 'ROLE_OPERATOR')).toBe(false);
  });

  it('judges by the active role, not by every role the user holds', () => {
    // A user holding ROLE_ADMIN who works as an operator sees what the operator may press.
    expect(mayPress('sysuser:delete', [], 'ROLE_OPERATOR')).toBe(false);
    expect(mayPress('sysuser:delete', [], undefined)).toBe(false);
  });

  it('needs the exact code', () => {
    expect(mayPress('sysuser', ['sysuser:add'], 'ROLE_OPERATOR')).toBe(false);
  });
});
