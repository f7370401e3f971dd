import type { Sql } from '../database';

/**
 * Operation records of the demo's past weeks: commands the operator sent (the device page's and
 * the operation records screen's rows) and the operation log of the changes both users made,
 * written as the command service and the audit hook write them.
 */

/**
 * [device no., command, params, status, result, latency ms, age]. Only the first device of a
 * product: browser tests drive the others and count their records from none.
 */
const COMMANDS: Array<[string, string, object, string, string | null, number | null, string]> = [
  [
    'IRR-VALVE-4-01',
    'openValve',
    { channel: 1, durationMinutes: 90 },
    'succeeded',
    '1路阀门已开启',
    1840,
    '6 days',
  ],
  [
    'IRR-VALVE-4-01',
    'closeValve',
    { channel: 1 },
    'succeeded',
    '1路阀门已关闭',
    1620,
    '6 days - 90 minutes',
  ],
  ['PUMP-VFD-2-01', 'startPump', { pumpNo: 1 }, 'succeeded', '1号泵已启动', 3150, '5 days'],
  [
    'PUMP-VFD-2-01',
    'setFrequency',
    { pumpNo: 1, frequency: 42.5 },
    'succeeded',
    '频率已设定为42.5Hz',
    980,
    '5 days - 10 minutes',
  ],
  ['GATE-1-01', 'setGateOpening', { opening: 0.8 }, 'timeout', null, null, '3 days'],
  [
    'GATE-1-01',
    'setGateOpening',
    { opening: 0.8 },
    'succeeded',
    '开度已到0.80m',
    41200,
    '3 days - 10 minutes',
  ],
  [
    'IRR-VALVE-4-01',
    'openValve',
    { channel: 3, durationMinutes: 60 },
    'failed',
    '3路阀门卡滞',
    2210,
    '2 days',
  ],
  ['PUMP-VFD-2-01', 'stopPump', { pumpNo: 1 }, 'succeeded', '1号泵已停止', 2890, '1 day'],
  [
    'FERT-4CH-01',
    'setRecipe',
    { targetEc: 2.2, targetPh: 6 },
    'succeeded',
    '配方已设定',
    1350,
    '1 day - 2 hours',
  ],
  [
    'FERT-4CH-01',
    'startProgram',
    { group: 1, waterBeforeMinutes: 10, fertilizerMinutes: 40, waterAfterMinutes: 15 },
    'succeeded',
    '1组施肥程序已启动',
    2040,
    '1 day - 2 hours - 1 minute',
  ],
  [
    'PUMP-VFD-2-01',
    'startPump',
    { pumpNo: 2 },
    'failed',
    '前池水位低于干运行保护水位',
    1710,
    '9 days',
  ],
  // This morning's rounds: the workbench's operations today.
  [
    'PUMP-VFD-2-01',
    'setFrequency',
    { pumpNo: 1, frequency: 45 },
    'succeeded',
    '频率已设定为45Hz',
    870,
    '25 minutes',
  ],
  [
    'IRR-VALVE-4-01',
    'openValve',
    { channel: 2, durationMinutes: 60 },
    'succeeded',
    '2路阀门已开启',
    1930,
    '15 minutes',
  ],
];

/** [user, action (the route's key, see audit-route.ts), method, url, target, result, HTTP status, message, ms, age] */
const OPERATIONS: Array<
  [string, string, string, string, string | null, string, number, string | null, number, string]
> = [
  [
    'admin',
    'add:SysPost',
    'POST',
    '/api/admin/syspost/addSysPost',
    null,
    'success',
    200,
    null,
    38,
    '14 days',
  ],
  [
    'admin',
    'update:SysParam',
    'PUT',
    '/api/admin/sysparam/updateSysParam',
    null,
    'success',
    200,
    null,
    25,
    '12 days',
  ],
  [
    'admin',
    'add:SensorInstance',
    'POST',
    '/api/iot/sensorinstance/addSensorInstance',
    null,
    'success',
    200,
    null,
    41,
    '10 days',
  ],
  [
    'admin',
    'add:ControllerInstance',
    'POST',
    '/api/iot/controllerinstance/addControllerInstance',
    null,
    'success',
    200,
    null,
    36,
    '10 days',
  ],
  [
    'operator',
    'sendCommand',
    'POST',
    '/api/iot/command/sendCommand',
    null,
    'success',
    200,
    null,
    57,
    '6 days',
  ],
  [
    'operator',
    'sendCommand',
    'POST',
    '/api/iot/command/sendCommand',
    null,
    'failure',
    400,
    'Opening: at most 3',
    12,
    '3 days',
  ],
  [
    'admin',
    'update:IotDevice',
    'PUT',
    '/api/iot/device/updateIotDevice',
    null,
    'success',
    200,
    null,
    44,
    '2 days',
  ],
];

/** The products' command timeouts (products.ts), as the command service records them. */
const TIMEOUTS: Record<string, number> = {
  openValve: 30,
  closeValve: 30,
  startPump: 60,
  stopPump: 60,
  setFrequency: 30,
  setGateOpening: 300,
  setRecipe: 30,
  startProgram: 60,
};

export async function seedDemoRecords(
  sql: Sql,
  tenantId: string,
  [adminId, operatorId]: string[],
): Promise<void> {
  const { rows } = await sql.query<{ id: string; device_no: string }>(
    'SELECT id::text AS id, device_no FROM iot_device WHERE tenant_id = $1',
    [tenantId],
  );
  const devices = new Map(rows.map((row) => [row.device_no, row.id]));
  for (const [deviceNo, name, params, status, result, latency, age] of COMMANDS) {
    const deviceId = devices.get(deviceNo);
    if (!deviceId) continue;
    await sql.query(
      `INSERT INTO iot_command (tenant_id, created_by, username, device_id, name, params, status, timeout_seconds,
                                created_at, expires_at, sent_at, acked_at, latency_ms, result)
       SELECT $1, $2, 'operator', $3, $4, $5, $6, $10, at, at + interval '1 hour', at + interval '1 second',
              CASE WHEN $7::int IS NULL THEN NULL ELSE at + interval '1 second' + make_interval(secs => $7::int / 1000.0) END,
              $7, $8
         FROM (SELECT now() - $9::interval AS at) AS t`,
      [
        tenantId,
        operatorId ?? null,
        deviceId,
        name,
        JSON.stringify(params),
        status,
        latency,
        result,
        age,
        TIMEOUTS[name] ?? 30,
      ],
    );
  }
  const users: Record<string, string | undefined> = { admin: adminId, operator: operatorId };
  for (const [user, action, method, url, target, result, status, message, ms, age] of OPERATIONS) {
    await sql.query(
      `INSERT INTO operation_log (tenant_id, username, action, method, url, target, ip, result, status, message,
                                  duration_ms, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now() - $13::interval)`,
      [
        tenantId,
        user,
        action,
        method,
        url,
        target,
        user === 'admin' ? '10.20.1.15' : '10.20.3.42',
        result,
        status,
        message,
        ms,
        users[user] ?? null,
        age,
      ],
    );
  }
}
