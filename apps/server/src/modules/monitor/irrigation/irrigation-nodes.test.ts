import { afterAll, beforeAll, describe, it } from 'vitest';
import { signIn } from '@shuili/test-support/api-client';
import {
  startSecondNode,
  startTestServer,
  TEST_DATABASE_URL,
  type TestServer,
} from '@shuili/test-support/test-server';
import { expectRotationRunsOnce } from './irrigation-test-kit';

describe.skipIf(!TEST_DATABASE_URL)('a rotation schedule on two server nodes', () => {
  let first: TestServer;
  let second: TestServer;
  let token: string;
  beforeAll(async () => {
    first = await startTestServer({ backend: 'postgres' });
    second = await startSecondNode(first);
    token = (await signIn(first, 'demo', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('runs each start and step exactly once, each channel opened once', async () => {
    await expectRotationRunsOnce(first, first.db, token);
  });
});
