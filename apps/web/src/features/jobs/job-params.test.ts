import { parseProcessorParams, PROCESSORS } from '@shuili/contract';
import { describe, expect, it } from 'vitest';
import { jobParamsOf, paramProblem, paramValuesOf } from './job-params';

describe('processor parameter form', () => {
  it('starts a new job from the declared defaults', () => {
    expect(paramValuesOf('alarmDigest', undefined)).toEqual({ hours: 24, openOnly: false });
    expect(paramValuesOf('webhook', '')).toEqual({ method: 'POST', requestTimeoutMs: 10_000 });
    expect(paramValuesOf(undefined, '{"hours":3}')).toEqual({});
  });

  it('reads a stored job, keeping declared parameters only', () => {
    const values = paramValuesOf(
      'dataReport',
      '{"areaCode":"irrigation","period":"week","recipients":["a@x.cn","b@x.cn"],"stray":1}',
    );
    expect(values).toEqual({
      areaCode: 'irrigation',
      period: 'week',
      format: 'xlsx',
      recipients: ['a@x.cn', 'b@x.cn'],
    });
  });

  it('drops a choice its select no longer offers, for the default or a new choice', () => {
    expect(paramValuesOf('dataReport', '{"areaCode":"gone","period":"hour"}')).toEqual({
      period: 'day',
      format: 'xlsx',
    });
  });

  it('shows a JSON body stored as an object as its text', () => {
    const values = paramValuesOf('webhook', '{"url":"https://x.cn","body":{"a":1}}');
    expect(values.body).toBe('{\n  "a": 1\n}');
  });

  it('falls back to the defaults when the stored text is not an object', () => {
    expect(paramValuesOf('retentionSweep', 'not json')).toEqual({ instanceDays: 90 });
    expect(paramValuesOf('retentionSweep', '[1,2]')).toEqual({ instanceDays: 90 });
  });

  it('serialises typed values in declaration order, leaving blanks out', () => {
    const text = jobParamsOf('webhook', {
      requestTimeoutMs: '5000',
      url: '  https://hooks.example.com/x ',
      method: 'PUT',
      body: '   ',
    });
    expect(text).toBe(
      '{"url":"https://hooks.example.com/x","method":"PUT","requestTimeoutMs":5000}',
    );
    expect(jobParamsOf('alarmDigest', { hours: 6, openOnly: true })).toBe(
      '{"hours":6,"openOnly":true}',
    );
    expect(jobParamsOf('alarmDigest', { hours: null })).toBe('{}');
    expect(jobParamsOf(undefined, { hours: 1 })).toBe('{}');
  });

  it('sends e-mail tags as a trimmed list, none as absent', () => {
    expect(jobParamsOf('dataReport', { recipients: [' a@x.cn ', '', 'b@x.cn'] })).toBe(
      '{"recipients":["a@x.cn","b@x.cn"]}',
    );
    expect(jobParamsOf('dataReport', { recipients: [] })).toBe('{}');
  });

  it('round-trips through the server check of every processor', () => {
    const area = PROCESSORS.dataReport.params.find((param) => param.name === 'areaCode')!;
    const areaCode = area.options?.[0]?.value ?? 'A1';
    const filled: Record<string, Record<string, unknown>> = {
      irrigationProgram: { scheduleId: '12' },
      dataReport: { areaCode, recipients: ['a@x.cn'] },
      retentionSweep: {},
      alarmDigest: {},
      recomputeRollups: {},
      webhook: { url: 'https://x.cn/h', body: '{"a":1}' },
    } as const;
    for (const [type, extra] of Object.entries(filled)) {
      const processor = type as Parameters<typeof paramValuesOf>[0] & string;
      const text = jobParamsOf(processor, { ...paramValuesOf(processor, undefined), ...extra });
      expect(parseProcessorParams(processor, text)).toHaveProperty('params');
      expect(jobParamsOf(processor, paramValuesOf(processor, text))).toBe(text);
    }
  });

  it('lets the server name a missing required parameter', () => {
    expect(parseProcessorParams('dataReport', jobParamsOf('dataReport', {}))).toEqual({
      problem: { param: 'areaCode', key: 'validation.required' },
    });
  });
});

describe('processor parameter checks', () => {
  const param = (type: keyof typeof PROCESSORS, name: string) =>
    PROCESSORS[type].params.find((one) => one.name === name)!;

  it('takes a filled number or switch as filled, a blank required one as missing', () => {
    expect(paramProblem(param('alarmDigest', 'hours'), 6)).toBeUndefined();
    expect(paramProblem(param('alarmDigest', 'hours'), 0)).toBeUndefined();
    expect(paramProblem(param('alarmDigest', 'openOnly'), false)).toBeUndefined();
    expect(paramProblem(param('alarmDigest', 'hours'), null)).toEqual({
      key: 'validation.required',
    });
    expect(paramProblem(param('dataReport', 'recipients'), [])).toEqual({
      key: 'validation.required',
    });
    expect(paramProblem(param('webhook', 'body'), '  ')).toBeUndefined();
  });

  it('names a bad e-mail, too many of them, a non-http address and broken JSON', () => {
    expect(paramProblem(param('dataReport', 'recipients'), ['a@x.cn', 'nope'])).toEqual({
      key: 'jobs.form.badEmail',
      values: { value: 'nope' },
    });
    const many = Array.from({ length: 21 }, (_, index) => `u${index}@x.cn`);
    expect(paramProblem(param('dataReport', 'recipients'), many)).toEqual({
      key: 'jobs.form.tooMany',
      values: { max: 20 },
    });
    expect(paramProblem(param('webhook', 'url'), 'ftp://x.cn')).toEqual({
      key: 'jobs.form.badUrl',
    });
    expect(paramProblem(param('webhook', 'url'), 'https://x.cn/h')).toBeUndefined();
    expect(paramProblem(param('webhook', 'body'), '{"a":')).toEqual({ key: 'jobs.form.badJson' });
    expect(paramProblem(param('webhook', 'body'), '{"a":1}')).toBeUndefined();
  });
});
