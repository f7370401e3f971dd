import { describe, expect, it } from 'vitest';
import { topicMatches } from './topic-filter';

describe('topicMatches', () => {
  it('matches exact topics only when every level is equal', () => {
    expect(topicMatches('t/demo/d/D1/telemetry', 't/demo/d/D1/telemetry')).toBe(true);
    expect(topicMatches('t/demo/d/D1/telemetry', 't/demo/d/D2/telemetry')).toBe(false);
    expect(topicMatches('t/demo/d/D1', 't/demo/d/D1/telemetry')).toBe(false);
  });

  it('lets + stand for exactly one level', () => {
    expect(topicMatches('t/demo/d/+/+', 't/demo/d/D1/status')).toBe(true);
    expect(topicMatches('t/demo/d/+/+', 't/demo/d/D1/cmd/ack')).toBe(false);
    expect(topicMatches('t/demo/d/+/telemetry', 't/demo/alarm')).toBe(false);
  });

  it('lets # stand for the parent and any number of levels', () => {
    expect(topicMatches('t/demo/#', 't/demo/d/D1/cmd/ack')).toBe(true);
    expect(topicMatches('t/demo/#', 't/demo')).toBe(true);
    expect(topicMatches('t/demo/#', 't/acme/alarm')).toBe(false);
  });
});
