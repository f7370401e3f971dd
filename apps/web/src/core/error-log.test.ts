import { beforeEach, describe, expect, it } from 'vitest';
import {
  addErrorLog,
  clearErrorLog,
  ERROR_LOG_LIMIT,
  toErrorLogEntry,
  useErrorLogStore,
} from './error-log';

describe('error log', () => {
  beforeEach(() => clearErrorLog());

  it('describes Errors by message and stack, anything else by its text', () => {
    const error = new Error('boom');
    const entry = toErrorLogEntry(error, 'window error', 'http://x/home/workbench');
    expect(entry).toMatchObject({
      message: 'boom',
      info: 'window error',
      url: 'http://x/home/workbench',
    });
    expect(entry.stack).toContain('boom');
    expect(toErrorLogEntry('plain', 'unhandled rejection', 'u')).toMatchObject({
      message: 'plain',
      stack: '',
    });
    expect(toErrorLogEntry(undefined, 'unhandled rejection', 'u').message).toBe('unknown error');
  });

  it('describes thrown objects readably, never as [object Object]', () => {
    const failedForm = {
      values: {},
      errorFields: [
        { name: ['channel'], errors: ['Channel is required'] },
        { name: ['durationMinutes'], errors: ['Duration is required'] },
      ],
    };
    expect(toErrorLogEntry(failedForm, 'unhandled rejection', 'u').message).toBe(
      'Channel is required; Duration is required',
    );
    expect(toErrorLogEntry({ message: 'gone' }, 'i', 'u').message).toBe('gone');
    expect(toErrorLogEntry({ code: 7 }, 'i', 'u').message).toBe('{"code":7}');
  });

  it('adds entries in order and clears them', () => {
    addErrorLog(toErrorLogEntry(new Error('a'), 'i', 'u'));
    addErrorLog(toErrorLogEntry(new Error('b'), 'i', 'u'));
    expect(useErrorLogStore.getState().logs.map((log) => log.message)).toEqual(['a', 'b']);
    clearErrorLog();
    expect(useErrorLogStore.getState().logs).toEqual([]);
  });

  it('keeps only the newest entries', () => {
    for (let i = 0; i < ERROR_LOG_LIMIT + 5; i += 1) {
      addErrorLog(toErrorLogEntry(new Error(String(i)), 'i', 'u'));
    }
    const logs = useErrorLogStore.getState().logs;
    expect(logs).toHaveLength(ERROR_LOG_LIMIT);
    expect(logs.at(-1)?.message).toBe(String(ERROR_LOG_LIMIT + 4));
  });
});
