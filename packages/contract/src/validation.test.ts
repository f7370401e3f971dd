import { describe, expect, it } from 'vitest';
import { registerAccountSchema } from './api/uaa';
import { v } from './validation';

describe('validation rules of spec §5', () => {
  it('trims usernames and mobiles but never passwords', () => {
    expect(v.username().parse('  admin ')).toBe('admin');
    expect(v.password().parse(' secret ')).toBe(' secret ');
    expect(v.mobile().parse(' +86 138-0013-8000 '.replace(/-/g, ''))).toBe('+8613800138000');
  });

  it('holds the lengths: username 3–64, password 6–31, tenant name 1–64', () => {
    expect(v.username().safeParse('ab').success).toBe(false);
    expect(v.username().safeParse('a'.repeat(65)).success).toBe(false);
    expect(v.password().safeParse('12345').success).toBe(false);
    expect(v.password().safeParse('x'.repeat(31)).success).toBe(true);
    expect(v.password().safeParse('x'.repeat(32)).success).toBe(false);
    expect(v.tenantName().safeParse('  ').success).toBe(false);
    expect(v.tenantName().safeParse('x'.repeat(64)).success).toBe(true);
  });

  it('needs a country code on mobiles and a real address on e-mails', () => {
    expect(v.mobile().safeParse('13800138000').success).toBe(false);
    expect(v.mobile().safeParse('+1 4155550100').success).toBe(true);
    expect(v.email().safeParse('a@b').success).toBe(false);
    expect(v.email().parse(' ops@district.cn ')).toBe('ops@district.cn');
  });

  it('names "required" for a missing field and "invalid" for a wrong type', () => {
    const result = registerAccountSchema.safeParse({ tenantName: 5 });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(
      result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]),
    );
    expect(messages.tenantName).toBe('validation.invalid');
    expect(messages.username).toBe('validation.required');
  });
});
