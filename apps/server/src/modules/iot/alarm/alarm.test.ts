import mqtt from 'mqtt';
import { liveTopics } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, userIdOf } from '@shuili/test-support/api-client';
import { BACKENDS, startSecondNode, type TestServer } from '@shuili/test-support/test-server';
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

/** Water levels as the device reports them, `offsetSeconds` after `base` (ms). */
function waterLevels(client: mqtt.MqttClient, device: ControlDevice, base: number) {
  return (offsetSeconds: number, waterLevel: number) =>
    client.publishAsync(
      `t/demo/d/${device.deviceNo}/telemetry`,
      JSON.stringify({ ts: base + offsetSeconds * 1000, values: { waterLevel } }),
      { qos: 1 },
    );
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

  /** A new device of the control product, and a rule on its water level (`fields` beside). */
  async function deviceWithRule(
    ruleName: string,
    fields: (device: ControlDevice) => Record<string, unknown>,
  ) {
    const device = await createControlDevice(control.server.db);
    const rule = await call(control.server, 'POST', `${RULES}/addAlarmRule`, {
      token,
      body: { ruleName, propertyKey: 'waterLevel', ...fields(device) },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    return device;
  }

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
      const device = await deviceWithRule('High water', ({ productId }) => ({
        productId,
        kind: 'above',
        high: 5,
        hysteresis: 0.5,
        level: 'orange',
      }));

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
      const report = waterLevels(gate.client, device, base);
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

      // The bell of every user who may see it has it, in the reader's language only, until
      // someone acknowledges it (read or not); it is not counted among the unread notices.
      const bell = (who: string, lang?: 'zh' | 'tw' | 'en') =>
        call(server, 'GET', '/api/notification/notification/queryHeadNotification', {
          token: who,
          lang,
        });
      const head = await bell(token);
      const notice = head.body.data.list.find((item: { title: string }) =>
        item.title.includes(`Gate ${device.deviceNo.slice(3)}`),
      );
      expect(notice).toMatchObject({
        priority: 'high',
        type: 'notification',
        alarm: { id: raised[0]!.id, deviceId: device.deviceId, level: 'orange' },
      });
      expect(notice.title).toContain('Orange alarm');
      expect(notice.title).not.toContain('告警');
      expect(notice.description).toContain('5.6 m');
      expect(notice.description).not.toContain('阈值');
      expect(head.body.data.alarms).toBe(1);
      expect(head.body.data.unread.notification).toBe(2);
      const inChinese = (await bell(token, 'zh')).body.data.list.find(
        (item: { id: string }) => item.id === notice.id,
      );
      expect(inChinese.title).toContain('橙色告警');
      expect(inChinese.title).not.toContain('alarm');
      const inTraditional = (await bell(token, 'tw')).body.data.list.find(
        (item: { id: string }) => item.id === notice.id,
      );
      expect(inTraditional.description).toContain('閾值');
      const operator = await signIn(server, 'demo', 'operator', 'operator123');
      const theirs = await bell(operator.access_token);
      expect(theirs.body.data.list.map((item: { id: string }) => item.id)).toContain(notice.id);
      // Reading it leaves it on the bell: only an acknowledgement takes it off.
      await call(server, 'POST', '/api/notification/notification/readNotification', {
        token,
        body: { ids: [notice.id] },
      });
      expect((await bell(token)).body.data.alarms).toBe(1);

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
      const cleanBell = await bell(operator.access_token);
      expect(cleanBell.body.data.alarms).toBe(0);
      expect(cleanBell.body.data.list.map((item: { id: string }) => item.id)).not.toContain(
        notice.id,
      );
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
      const bellPush = pushes.find(
        (push) => push.topic.endsWith('/notify') && push.body.kind === 'alarm',
      );
      expect(bellPush?.body).toMatchObject({
        alarmId: raised[0]!.id,
        deviceId: device.deviceId,
        level: 'orange',
        notificationId: notice.id,
        title: { en: notice.title, zh: inChinese.title, tw: expect.stringContaining('橙色') },
      });
      await browser.endAsync();
      await gate.client.endAsync();
    },
  );

  it.skipIf(!available)(
    'several alarms are acknowledged in one call with one comment, all or none',
    async () => {
      const { server } = control;
      const devices = [await createControlDevice(server.db), await createControlDevice(server.db)];
      for (const device of devices) {
        const rule = await call(server, 'POST', `${RULES}/addAlarmRule`, {
          token,
          body: {
            ruleName: 'Very high water',
            deviceId: device.deviceId,
            propertyKey: 'waterLevel',
            kind: 'above',
            high: 8,
            level: 'red',
          },
        });
        expect(rule.status).toBe(200);
      }
      const gates = await Promise.all(devices.map((device) => connectDevice(server, device)));
      for (const [index, device] of devices.entries())
        await gates[index]!.client.publishAsync(
          `t/demo/d/${device.deviceNo}/telemetry`,
          JSON.stringify({ values: { waterLevel: 9.5 } }),
          { qos: 1 },
        );
      const ids: string[] = [];
      for (const device of devices) {
        const rows = await eventually(
          () => records(server, device),
          (list) => list.length > 0,
          'alarm raised',
        );
        ids.push(rows[0]!.id);
      }

      // One id the caller cannot reach (none, or another tenant's): nothing is acknowledged.
      const refused = await call(server, 'POST', `${RULES}/acknowledgeAlarm`, {
        token,
        body: { ids: [...ids, '999999999'], comment: 'all at once' },
      });
      expect(refused.status).toBe(404);
      for (const device of devices)
        expect((await records(server, device))[0]!.acknowledgedBy).toBeNull();
      const acme = await signIn(server, 'acme', 'admin', 'admin123');
      const foreign = await call(server, 'POST', `${RULES}/acknowledgeAlarm`, {
        token: acme.access_token,
        body: { ids, comment: 'not ours' },
      });
      expect(foreign.status).toBe(404);
      const empty = await call(server, 'POST', `${RULES}/acknowledgeAlarm`, {
        token,
        body: { comment: 'none named' },
      });
      expect(empty.status).toBe(400);
      expect(empty.body.errors[0].field).toBe('ids');

      const done = await call(server, 'POST', `${RULES}/acknowledgeAlarm`, {
        token,
        body: { ids, comment: 'Both gates checked on site' },
      });
      expect(done.status).toBe(200);
      for (const device of devices)
        expect((await records(server, device))[0]).toMatchObject({
          acknowledgedBy: 'admin',
          ackComment: 'Both gates checked on site',
        });
      await Promise.all(gates.map((gate) => gate.client.endAsync()));
    },
  );

  it.skipIf(!available)(
    'a rate of change is measured from the stored reading before, whichever node stored it',
    async () => {
      const { server } = control;
      const device = await deviceWithRule('Rising fast', ({ deviceId }) => ({
        deviceId,
        kind: 'rateOfChange',
        ratePerMinute: 0.5,
        hysteresis: 0.1,
        level: 'red',
      }));
      // On PostgreSQL the fast rise reaches a second node, as behind a load balancer: it never
      // saw the readings before it.
      const second = backend === 'postgres' ? await startSecondNode(server) : undefined;
      try {
        const base = Date.now() - 5 * 60_000;
        const first = await connectDevice(server, device);
        const calm = waterLevels(first.client, device, base);
        await calm(0, 2.0);
        await calm(60, 2.2); // 0.2 a minute
        await eventually(
          async () =>
            (
              await server.db.systemStatement<{ count: number }>(
                'SELECT count(*)::int AS count FROM iot_telemetry WHERE device_id = $1',
                [device.deviceId],
              )
            ).rows[0]!.count,
          (count) => count === 2,
          'the calm readings stored',
        );
        await first.client.endAsync();
        expect(await records(server, device)).toHaveLength(0);

        const later = await connectDevice(second ?? server, device);
        const report = waterLevels(later.client, device, base);
        await report(90, 3.0); // 0.8 in half a minute: 1.6 a minute
        const raised = await eventually(
          () => records(server, device),
          (rows) => rows.length > 0,
          'rate alarm raised',
        );
        expect(raised[0]).toMatchObject({ state: 'open', threshold: 0.5, level: 'red' });
        expect(raised[0]!.value).toBeCloseTo(1.6, 6);
        expect(raised[0]!.startedAt).toBe(new Date(base + 90_000).toISOString());
        await report(150, 3.05); // 0.05 a minute, below the band: cleared
        const cleared = await eventually(
          () => records(server, device),
          (rows) => rows[0]?.state === 'cleared',
          'rate alarm cleared',
        );
        expect(cleared[0]!.clearedAt).toBe(new Date(base + 150_000).toISOString());
        await later.client.endAsync();
      } finally {
        await second?.close();
      }
    },
    60_000,
  );

  it.skipIf(!available)('each user chooses the lowest alarm level that pops up', async () => {
    const { server } = control;
    const url = '/api/notification/notification';
    const operator = (await signIn(server, 'demo', 'operator', 'operator123')).access_token;
    const mine = async (who: string) =>
      (await call(server, 'GET', `${url}/queryAlarmPreference`, { token: who })).body.data;
    expect(await mine(operator)).toEqual({ alarmPopupLevel: 'blue' });
    const set = await call(server, 'POST', `${url}/updateAlarmPreference`, {
      token: operator,
      body: { alarmPopupLevel: 'red' },
    });
    expect(set.status).toBe(200);
    expect(await mine(operator)).toEqual({ alarmPopupLevel: 'red' });
    // Another user's choice is their own.
    expect(await mine(token)).toEqual({ alarmPopupLevel: 'blue' });
    const wrong = await call(server, 'POST', `${url}/updateAlarmPreference`, {
      token: operator,
      body: { alarmPopupLevel: 'purple' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toBe('alarmPopupLevel');
  });

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
