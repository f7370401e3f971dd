import { describe, expect, it } from 'vitest';
import { initParamsProblem } from './RunWorkflowDialog';

describe('init params', () => {
  it('accepts an empty text or a JSON object, refuses other JSON and broken text', () => {
    expect(initParamsProblem('')).toBeUndefined();
    expect(initParamsProblem('  {"district": 3}  ')).toBeUndefined();
    expect(initParamsProblem('[1]')).toBe('object');
    expect(initParamsProblem('null')).toBe('object');
    expect(initParamsProblem('42')).toBe('object');
    expect(initParamsProblem('{district: 3}')).toBe('json');
  });
});
