import mqtt from 'mqtt';
import { liveTopics } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, userIdOf } from '@shuili/test-support/api-client';
import { BACKENDS, type TestServer } from '@shuili/test-support/test-server';
import {
  adminToken,
  connectDevice,
  createControlDevice,
  eventually,
  startControlServer,
  type ControlDevice,
  type ControlServer,
} from '../command/control-test-kit';

const RULES = '/api/iot/alarm';

interface AlarmRow {
  id: string;
  state: string;
  value: number;
  threshold: number;
  startedAt: string;
  clearedAt: string | null;
  acknowledgedBy: string | null;
  ackComment: string | null;
  level: string;
}

describe.each(BACKENDS)('alarms on $backend', ({ backend, available }) => {
  let control: ControlServer;
  let token: string;
  beforeAll(async () => {
    if (!available) return;
    control = await startControlServer(backend);
    token = await adminToken(control.server);
  });
  afterAll(async () => control?.close());

  const records = async (server: TestServer, device: ControlDevice): Promise<AlarmRow[]> =>
    (
      await call(server, 'GET', `${RULES}/queryAlarmRecord`, {
        token,
        query: { deviceId: device.deviceId },
      })
    ).body.data.list;

  it.skipIf(!available)('a rule needs a scope, its thresholds and a known property', async () => {
    const { server } = control;
    const device = await createControlDevice(server.db);
    const base = { ruleName: 'High water', propertyKey: 'waterLevel', kind: 'above', level: 'red' };
    const noScope = await call(server, 'POST', `${RULES}/addAlarmRule`, {
      token,
      body: { ...base, high: 5 },
    });
    expect(noScope.status).toBe(400);
    expect(noScope.body.errors[0].field).toBe('productId');
    const noHigh = await call(server, 'POST', `${RULES}/addAlarmRule`, {
      token,
      body: { ...base, deviceId: device.deviceId },
    });
    expect(noHigh.status).toBe(400);
    expect(noHigh.body.errors[0].field).toBe('high');
    const unknown = await call(server, 'POST', `${RULES}/addAlarmRule`, {
      token,
      body: { ...base, deviceId: device.deviceId, high: 5, propertyKey: 'rainfall' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('propertyKey');
    const rules = await call(server, 'GET', `${RULES}/queryAlarmRule`, {
      token,
      query: { deviceId: device.deviceId },
    });
    expect(rules.body.data.total).toBe(0);
  });

  it.skipIf(!available)(
    'crossing raises one alarm, notified on the bell and live; the hysteresis decides when it clears; it is acknowledged with a comment',
    async () => {
      const { server } = control;
      const device = await createControlDevice(server.db);
      const rule = await call(server, 'POST', `${RULES}/addAlarmRule`, {
        token,
        body: {
          ruleName: 'High water',
          productId: device.productId,
          propertyKey: 'waterLevel',
          kind: 'above',
          high: 5,
          hysteresis: 0.5,
          level: 'orange',
        },
      });
      expect(rule.status).toBe(200);

      // A browser of the tenant listens to the alarm topic and the admin's bell.
      const admin = await signIn(server, 'demo', 'admin', 'admin123');
      const port = server.app.deviceTransport.endpoints().tcpPort;
      const browser = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        clientId: `web:demo:${Math.random().toString(36).slice(2)}`,
        username: 'admin',
        password: admin.access_token,
        reconnectPeriod: 0,
      });
      const pushes: Array<{ topic: string; body: Record<string, unknown> }> = [];
      browser.on('message', (topic, payload) =>
        pushes.push({ topic, body: JSON.parse(payload.toString()) as Record<string, unknown> }),
      );
      await browser.subscribeAsync(liveTopics.alarms('demo'), { qos: 0 });
      const adminId = await userIdOf(server, 'demo', 'admin');
      await browser.subscribeAsync(`t/demo/u/${adminId}/notify`, { qos: 0 });

      const gate = await connectDevice(server, device);
      const base = Date.now() - 60_000;
      const report = (offsetSeconds: number, waterLevel: number) =>
        gate.client.publishAsync(
          `t/demo/d/${device.deviceNo}/telemetry`,
          JSON.stringify({ ts: base + offsetSeconds * 1000, values: { waterLevel } }),
          { qos: 1 },
        );
      await report(0, 4.2);
      await report(1, 5.6);
      const raised = await eventually(
        () => records(server, device),
        (rows) => rows.length > 0,
        'alarm raised',
      );
      expect(raised).toHaveLength(1);
      expect(raised[0]).toMatchObject({ state: 'open', value: 5.6, threshold: 5, level: 'orange' });
      expect(raised[0]!.startedAt).toBe(new Date(base + 1000).toISOString());

      // Still above, then inside the hysteresis band: the same one alarm stays open.
      await report(2, 5.9);
      await report(3, 4.8);
      // Below the band: cleared at that reading's time.
      await report(4, 4.4);
      const cleared = await eventually(
        () => records(server, device),
        (rows) => rows.some((row) => row.state === 'cleared'),
        'alarm cleared',
      );
      expect(cleared).toHaveLength(1);
      expect(cleared[0]!.clearedAt).toBe(new Date(base + 4000).toISOString());

      // The bell of every user of the tenant has it.
      const head = await call(
        server,
        'GET',
        '/api/notification/notification/queryHeadNotification',
        {
          token,
        },
      );
      const notice = head.body.data.list.find((item: { title: string }) =>
        item.title.includes(`Gate ${device.deviceNo.slice(3)}`),
      );
      expect(notice).toMatchObject({ priority: 'high', type: 'notification' });
      expect(notice.title).toContain('Orange alarm');
      expect(notice.description).toContain('5.6m');
      const operator = await signIn(server, 'demo', 'operator', 'operator123');
      const theirs = await call(
        server,
        'GET',
        '/api/notification/notification/queryHeadNotification',
        {
          token: operator.access_token,
        },
      );
      expect(theirs.body.data.list.map((item: { id: string }) => item.id)).toContain(notice.id);

      const acknowledged = await call(server, 'POST', `${RULES}/acknowledgeAlarm`, {
        token,
        body: { id: raised[0]!.id, comment: 'Sluice opened downstream' },
      });
      expect(acknowledged.status).toBe(200);
      const after = await records(server, device);
      expect(after[0]).toMatchObject({
        acknowledgedBy: 'admin',
        ackComment: 'Sluice opened downstream',
      });
      const missing = await call(server, 'POST', `${RULES}/acknowledgeAlarm`, {
        token,
        body: { id: '999999999', comment: '' },
      });
      expect(missing.status).toBe(404);

      const events = await eventually(
        async () =>
          pushes
            .filter((push) => push.topic.startsWith('t/demo/alarm/'))
            .map((push) => push.body.event),
        (list) => list.length >= 3,
        'live pushes',
      );
      expect(events).toEqual(['raised', 'cleared', 'acknowledged']);
      expect(
        pushes.some((push) => push.topic.endsWith('/notify') && push.body.kind === 'alarm'),
      ).toBe(true);
      await browser.endAsync();
      await gate.client.endAsync();
    },
  );

  it.skipIf(!available)(
    'a silent device raises a noData alarm; its next reading clears it',
    async () => {
      const { server, alarms } = control;
      const device = await createControlDevice(server.db);
      const rule = await call(server, 'POST', `${RULES}/addAlarmRule`, {
        token,
        body: {
          ruleName: 'Gate silent',
          deviceId: device.deviceId,
          propertyKey: 'waterLevel',
          kind: 'noData',
          noDataMinutes: 5,
          level: 'yellow',
        },
      });
      expect(rule.status).toBe(200);
      await alarms.checkSilence();
      expect(await records(server, device)).toHaveLength(0);
      // Installed ten minutes ago and never heard from.
      await server.db.system((sql) =>
        sql.query(
          `UPDATE iot_device SET created_at = now() - interval '10 minutes' WHERE id = $1`,
          [device.deviceId],
        ),
      );
      await alarms.checkSilence();
      await alarms.checkSilence();
      const raised = await records(server, device);
      expect(raised).toHaveLength(1);
      expect(raised[0]).toMatchObject({ state: 'open', threshold: 5, level: 'yellow' });

      const gate = await connectDevice(server, device);
      await gate.client.publishAsync(
        `t/demo/d/${device.deviceNo}/telemetry`,
        JSON.stringify({ values: { waterLevel: 3.1 } }),
        { qos: 1 },
      );
      await eventually(
        () => records(server, device),
        (rows) => rows[0]?.state === 'cleared',
        'silence ended',
      );
      await gate.client.endAsync();
    },
  );
});
