import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { BACKENDS, startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { plainText } from './notification.repo';

describe('plainText', () => {
  it('turns rich text into one line', () => {
    expect(plainText('<p>Canal&nbsp;level &amp; flow</p>\n<p>rising</p>')).toBe(
      'Canal level & flow rising',
    );
    expect(plainText('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe.each(BACKENDS)('notifications on $backend', ({ backend, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer({ backend });
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)(
    'the bell counts unread notices and the messages meant for the caller only',
    async () => {
      const admin = await signIn(server, 'demo', 'admin', 'admin123');
      const head = await call(
        server,
        'GET',
        '/api/notification/notification/queryHeadNotification',
        { token: admin.access_token },
      );
      expect(head.body.data.unread).toEqual({ notification: 2, message: 1 });
      expect(head.body.data.list.map((item: { title: string }) => item.title)).toEqual([
        'Welcome to Shuili',
        'Pump station maintenance',
        'Spring irrigation opens',
      ]);
      expect(head.body.data.list[0]).toMatchObject({
        type: 'message',
        read: false,
        publisher: '管理员',
        description: 'Your account is ready. Start from the workbench.',
      });

      // Each reader gets the seeded notices in their language only (issue 17).
      for (const [lang, title, content] of [
        ['zh', '春灌开始', '春灌于 3 月 1 日开始'],
        ['tw', '春灌開始', '春灌於 3 月 1 日開始'],
      ]) {
        const theirs = await call(
          server,
          'GET',
          '/api/notification/notification/queryHeadNotification',
          { token: admin.access_token, lang },
        );
        const spring = theirs.body.data.list.at(-1);
        expect(spring.title).toBe(title);
        expect(spring.description).toContain(content);
        expect(spring.description).not.toContain('Spring');
      }

      const operator = await signIn(server, 'demo', 'operator', 'operator123');
      const theirs = await call(
        server,
        'GET',
        '/api/notification/notification/queryHeadNotification',
        { token: operator.access_token },
      );
      expect(theirs.body.data.list.map((item: { title: string }) => item.title)).toContain(
        'Shift handover',
      );
      expect(theirs.body.data.list.map((item: { title: string }) => item.title)).not.toContain(
        'Welcome to Shuili',
      );

      const acme = await signIn(server, 'acme', 'admin', 'admin123');
      const none = await call(
        server,
        'GET',
        '/api/notification/notification/queryHeadNotification',
        { token: acme.access_token },
      );
      expect(none.body.data).toEqual({
        unread: { notification: 0, message: 0 },
        alarms: 0,
        list: [],
      });
    },
  );

  it.skipIf(!available)(
    'marks notifications read by id or all at once, per user, and lists them with paging',
    async () => {
      const operator = await signIn(server, 'demo', 'operator', 'operator123');
      const token = operator.access_token;
      const all = await call(server, 'GET', '/api/notification/notification/queryMyNotification', {
        token,
        query: { pageSize: '2' },
      });
      expect(all.body.data).toMatchObject({ total: 3, currentPage: 1, pageSize: 2 });
      expect(all.body.data.list).toHaveLength(2);
      const firstId = all.body.data.list[0].id;

      const marked = await call(server, 'POST', '/api/notification/notification/readNotification', {
        token,
        body: { ids: [firstId] },
      });
      expect(marked.body.data).toEqual({ marked: 1 });
      const again = await call(server, 'POST', '/api/notification/notification/readNotification', {
        token,
        body: { ids: [firstId] },
      });
      expect(again.body.data).toEqual({ marked: 0 });
      const unread = await call(
        server,
        'GET',
        '/api/notification/notification/queryMyNotification',
        { token, query: { read: 'false' } },
      );
      expect(unread.body.data.total).toBe(2);

      const notices = await call(
        server,
        'POST',
        '/api/notification/notification/readNotification',
        { token, body: { type: 'notification' } },
      );
      expect(notices.body.data.marked).toBeGreaterThan(0);
      const head = await call(
        server,
        'GET',
        '/api/notification/notification/queryHeadNotification',
        { token },
      );
      expect(head.body.data.unread.notification).toBe(0);

      // The admin's read state is their own.
      const admin = await signIn(server, 'demo', 'admin', 'admin123');
      const adminHead = await call(
        server,
        'GET',
        '/api/notification/notification/queryHeadNotification',
        { token: admin.access_token },
      );
      expect(adminHead.body.data.unread.notification).toBe(2);
    },
  );

  it.skipIf(!available)(
    'cannot mark another tenant’s notification, and refuses bad input',
    async () => {
      const demoIds = await server.db.system((sql) =>
        sql.query<{ id: string }>(`SELECT id FROM notification`),
      );
      const acme = await signIn(server, 'acme', 'admin', 'admin123');
      const foreign = await call(
        server,
        'POST',
        '/api/notification/notification/readNotification',
        {
          token: acme.access_token,
          body: { ids: demoIds.rows.map((row) => row.id) },
        },
      );
      expect(foreign.body.data).toEqual({ marked: 0 });
      const reads = await server.db.system((sql) =>
        sql.query(
          `SELECT 1 FROM notification_read r JOIN sys_user u ON u.id = r.user_id JOIN tenant t ON t.id = u.tenant_id WHERE t.tenant_code = 'acme'`,
        ),
      );
      expect(reads.rows).toEqual([]);
      const bad = await call(server, 'POST', '/api/notification/notification/readNotification', {
        token: acme.access_token,
        body: { ids: ['1; DROP TABLE notification'] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].field).toBe('ids');
      const badType = await call(
        server,
        'GET',
        '/api/notification/notification/queryMyNotification',
        { token: acme.access_token, query: { type: 'spam' } },
      );
      expect(badType.status).toBe(400);
      expect(badType.body.errors[0].field).toBe('type');
    },
  );
});
