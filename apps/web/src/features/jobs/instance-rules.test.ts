import { describe, expect, it } from 'vitest';
import { anyLive, isEnded, mayRetry, mayStop, showsSecondlyNote } from './instance-rules';

describe('secondly jobs (spec §9)', () => {
  it('notes a CRON job whose seconds field is not one fixed second', () => {
    expect(showsSecondlyNote({ timeExpressionType: 'CRON', timeExpression: '0/5 * * * * ?' })).toBe(
      true,
    );
    expect(showsSecondlyNote({ timeExpressionType: 'CRON', timeExpression: '* * * * * ?' })).toBe(
      true,
    );
    expect(
      showsSecondlyNote({ timeExpressionType: 'CRON', timeExpression: '1,31 * * * * ?' }),
    ).toBe(true);
    expect(showsSecondlyNote({ timeExpressionType: 'CRON', timeExpression: '0 0 2 * * ?' })).toBe(
      false,
    );
    expect(showsSecondlyNote({ timeExpressionType: 'CRON', timeExpression: ' 30 * * * * ?' })).toBe(
      false,
    );
  });

  it('notes a fixed rate or delay under a minute, not one of a minute or more', () => {
    expect(showsSecondlyNote({ timeExpressionType: 'FIXED_RATE', timeExpression: '59999' })).toBe(
      true,
    );
    expect(showsSecondlyNote({ timeExpressionType: 'FIXED_RATE', timeExpression: '60000' })).toBe(
      false,
    );
    expect(showsSecondlyNote({ timeExpressionType: 'FIXED_DELAY', timeExpression: 1000 })).toBe(
      true,
    );
  });

  it('never notes an API or workflow job, nor no job', () => {
    expect(showsSecondlyNote({ timeExpressionType: 'API', timeExpression: null })).toBe(false);
    expect(showsSecondlyNote({ timeExpressionType: 'WORKFLOW' })).toBe(false);
    expect(showsSecondlyNote(undefined)).toBe(false);
  });
});

describe('instance actions', () => {
  it('stops only what has not ended and retries only failures, stops and cancels', () => {
    expect(mayStop('RUNNING')).toBe(true);
    expect(mayStop('WAITING_DISPATCH')).toBe(true);
    expect(mayStop('SUCCEED')).toBe(false);
    expect(mayStop(undefined)).toBe(false);
    expect(['FAILED', 'STOPPED', 'CANCELED'].every(mayRetry)).toBe(true);
    expect(mayRetry('SUCCEED')).toBe(false);
    expect(mayRetry('RUNNING')).toBe(false);
  });

  it('polls while any shown instance may still change', () => {
    expect(isEnded('SUCCEED')).toBe(true);
    expect(anyLive([{ status: 'SUCCEED' }, { status: 'FAILED' }])).toBe(false);
    expect(anyLive([{ status: 'SUCCEED' }, { status: 'WAITING_WORKER_RECEIVE' }])).toBe(true);
    expect(anyLive([])).toBe(false);
  });
});
