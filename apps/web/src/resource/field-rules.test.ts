import Schema from '@rc-component/async-validator';
import {
  appClientEntity,
  ENTITIES,
  f,
  iotDeviceEntity,
  label,
  sysRegionEntity,
  sysTenantEntity,
  sysUserEntity,
} from '@shuili/contract';
import type { Rule } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import en from '../i18n/features/resource/en.json';
import { fieldRules, PATTERN_MESSAGES, patternMessage, type Translate } from './field-rules';

/** Keys and values as text, so a test sees which message was chosen and with what. */
const t: Translate = (key, values) => (values ? `${key} ${JSON.stringify(values)}` : key);

/** The messages antd's form would show for a value (it runs these same rules with this validator). */
async function errorsOf(rules: Rule[], value: unknown): Promise<string[]> {
  const errors: string[] = [];
  for (const rule of rules) {
    if (typeof rule === 'function') continue;
    const schema = new Schema({ value: { ...rule } as never });
    try {
      await schema.validate({ value }, { suppressWarning: true });
    } catch (failure) {
      const list = (failure as { errors?: Array<{ message: string }> }).errors ?? [];
      errors.push(...list.map((error) => error.message));
    }
  }
  return errors;
}

const { fields: user } = sysUserEntity;

describe('fieldRules', () => {
  it('requires a required text field and checks its declared length, trimmed', async () => {
    const rules = fieldRules(user.username!, 'Username', t);
    expect(await errorsOf(rules, '')).toEqual(['validation.required {"field":"Username"}']);
    expect(await errorsOf(rules, '   ')).toContain('validation.required {"field":"Username"}');
    expect(await errorsOf(rules, ' ab ')).toEqual([
      'validation.length {"field":"Username","min":3,"max":64}',
    ]);
    expect(await errorsOf(rules, 'x'.repeat(65))).toHaveLength(1);
    expect(await errorsOf(rules, ' admin ')).toEqual([]);
  });

  it('leaves an optional field alone when empty and says only its maximum', async () => {
    const rules = fieldRules(user.profile!, 'Profile', t);
    expect(await errorsOf(rules, '')).toEqual([]);
    expect(await errorsOf(rules, undefined)).toEqual([]);
    expect(await errorsOf(rules, 'x'.repeat(1001))).toEqual([
      'resource.rule.maxLength {"field":"Profile","max":1000}',
    ]);
  });

  it('applies a declared pattern with its own translated message', async () => {
    const rules = fieldRules(sysRegionEntity.fields.regionCode!, 'Region code', t);
    expect(await errorsOf(rules, '11010a')).toEqual([
      'resource.pattern.digits {"field":"Region code"}',
    ]);
    expect(await errorsOf(rules, '110101')).toEqual([]);
    const clientId = fieldRules(appClientEntity.fields.clientId!, 'Client id', t);
    expect(await errorsOf(clientId, 'Bad Id')).toContain(
      'resource.pattern.clientId {"field":"Client id"}',
    );
  });

  it('checks email and mobile formats as the contract does', async () => {
    const email = fieldRules(user.email!, 'Email', t);
    expect(await errorsOf(email, 'not-an-email')).toEqual([
      'resource.pattern.email {"field":"Email"}',
    ]);
    expect(await errorsOf(email, ' someone@example.com ')).toEqual([]);
    expect(await errorsOf(email, '')).toEqual([]);

    const mobile = fieldRules(user.mobile!, 'Mobile', t);
    expect(await errorsOf(mobile, '13800138000')).toEqual([
      'resource.pattern.mobile {"field":"Mobile"}',
    ]);
    expect(await errorsOf(mobile, '+86 13800138000')).toEqual([]);
  });

  it('keeps numbers within their declared range', async () => {
    const rules = fieldRules(appClientEntity.fields.accessTokenValidity!, 'Seconds', t);
    expect(await errorsOf(rules, 30)).toEqual([
      'resource.rule.numberRange {"field":"Seconds","min":60,"max":86400}',
    ]);
    expect(await errorsOf(rules, 900)).toEqual([]);
    expect(await errorsOf(rules, undefined)).toEqual(['validation.required {"field":"Seconds"}']);
  });

  it('requires at least one entry of a required multiple reference', async () => {
    const rules = fieldRules(user.roleIds!, 'Roles', t);
    expect(await errorsOf(rules, [])).toEqual(['validation.requiredChoice {"field":"Roles"}']);
    expect(await errorsOf(rules, [{ value: '1', label: 'Admin' }])).toEqual([]);
  });

  it('accepts a chosen reference (an object) and requires one when required', async () => {
    const rules = fieldRules(user.orgId!, 'Organisation', t);
    expect(await errorsOf(rules, undefined)).toEqual([
      'validation.requiredChoice {"field":"Organisation"}',
    ]);
    expect(await errorsOf(rules, { value: '3', label: 'HQ' })).toEqual([]);
  });

  it('measures passwords untrimmed, 6 to 31 characters', async () => {
    const rules = fieldRules(sysTenantEntity.fields.adminPassword!, 'Password', t);
    expect(await errorsOf(rules, '  12  ')).toEqual([]);
    expect(await errorsOf(rules, '12345')).toEqual([
      'validation.length {"field":"Password","min":6,"max":31}',
    ]);
    expect(await errorsOf(rules, 'x'.repeat(32))).toHaveLength(1);
  });

  it('has nothing to say about an optional switch', async () => {
    const rules = fieldRules(f.bool({ label: label('On', '开', '開') }), 'On', t);
    expect(await errorsOf(rules, false)).toEqual([]);
  });
});

describe('pattern messages', () => {
  it('falls back to "is invalid" for a key the web does not know', () => {
    expect(patternMessage('validation.somethingNew', 'Code', t)).toBe(
      'resource.pattern.invalid {"field":"Code"}',
    );
  });

  it('has a translation for every pattern key an entity declares', () => {
    const declared = ENTITIES.flatMap((entity) =>
      Object.values(entity.fields).flatMap((field) =>
        field.pattern ? [field.pattern.key.replace(/^validation\./, '')] : [],
      ),
    );
    expect(
      declared.filter((key) => !(PATTERN_MESSAGES as readonly string[]).includes(key)),
    ).toEqual([]);
    const translated = en.resource.pattern as Record<string, string>;
    expect(PATTERN_MESSAGES.filter((key) => !translated[key])).toEqual([]);
  });
});

describe('number fields', () => {
  it('refuses, never clamps or rounds: out of range, fractions of whole numbers, extra places', async () => {
    const ints = fieldRules(iotDeviceEntity.fields.status!, 'Health', t);
    expect((await errorsOf(ints, 1.5)).join()).toContain('resource.rule.wholeNumber');
    const latitude = fieldRules(iotDeviceEntity.fields.lat!, 'Latitude', t);
    expect((await errorsOf(latitude, 200)).join()).toContain('resource.rule.numberRange');
    expect((await errorsOf(latitude, 30.1234567891)).join()).toContain('resource.rule.decimals');
    expect(await errorsOf(latitude, 30.5)).toEqual([]);
  });
});
