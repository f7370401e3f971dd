import {
  LED_SEND_EXPIRES_SECONDS,
  LED_SET_PROGRAM,
  type LedPage,
  type LedProgramPayload,
} from '@shuili/contract';
import type { Sql } from '../database';

/** The canal level the notice shows: the east canal gate's upstream level. */
const LEVEL_DEVICE = 'GATE-1-01';
const LEVEL_PROPERTY = 'upstreamLevel';

function canalNotice(gateId: string): LedPage[] {
  return [
    {
      durationSeconds: 15,
      background: '#000000',
      elements: [
        {
          id: 'title',
          type: 'text',
          x: 0,
          y: 4,
          width: 192,
          height: 24,
          color: '#ffcc00',
          fontSize: 18,
          align: 'center',
          text: '东干渠实时水位',
        },
        {
          id: 'level',
          type: 'live',
          x: 0,
          y: 34,
          width: 192,
          height: 32,
          color: '#00ff66',
          fontSize: 24,
          align: 'center',
          text: '闸前',
          binding: { deviceId: gateId, property: LEVEL_PROPERTY, unit: 'm', decimals: 2 },
        },
        {
          id: 'warn',
          type: 'text',
          x: 0,
          y: 74,
          width: 192,
          height: 18,
          color: '#ff3333',
          fontSize: 14,
          align: 'center',
          text: '行洪期间 请勿靠近渠堤',
        },
      ],
    },
    {
      durationSeconds: 8,
      background: '#000033',
      elements: [
        {
          id: 'plan',
          type: 'text',
          x: 0,
          y: 20,
          width: 192,
          height: 24,
          color: '#ffffff',
          fontSize: 18,
          align: 'center',
          text: '春灌轮灌 有序放水',
        },
        {
          id: 'contact',
          type: 'text',
          x: 0,
          y: 56,
          width: 192,
          height: 20,
          color: '#66ccff',
          fontSize: 14,
          align: 'center',
          text: '灌区管理所 0531-8888 6666',
        },
      ],
    },
  ];
}

const SLOGAN: LedPage[] = [
  {
    durationSeconds: 10,
    background: '#000000',
    elements: [
      {
        id: 'slogan',
        type: 'text',
        x: 0,
        y: 20,
        width: 192,
        height: 28,
        color: '#ffcc00',
        fontSize: 20,
        align: 'center',
        text: '节约用水 人人有责',
      },
      {
        id: 'sub',
        type: 'text',
        x: 0,
        y: 60,
        width: 192,
        height: 20,
        color: '#00ccff',
        fontSize: 14,
        align: 'center',
        text: '高效节水灌溉示范区',
      },
    ],
  },
];

/**
 * The LED area's demo (issue 19 item 8): a canal-level notice with a live value and a
 * water-saving slogan, sent to the demo screens as the setProgram commands an operator would
 * send. They wait for the screens (the light simulation) and are delivered when those connect:
 * the device list, the program list and the set-program page show real programs at once, and
 * the notice's level follows the gate's readings.
 */
export async function seedDemoLed(sql: Sql, tenantId: string, userId?: string): Promise<void> {
  const { rows: devices } = await sql.query<{ id: string; device_no: string }>(
    `SELECT id::text, device_no FROM iot_device
      WHERE tenant_id = $1 AND device_no = ANY ($2::text[]) ORDER BY device_no`,
    [tenantId, [LEVEL_DEVICE, 'LED-P10-01', 'LED-P10-02', 'LED-P10-03']],
  );
  const idOf = (no: string) => devices.find((device) => device.device_no === no)?.id;
  const gate = idOf(LEVEL_DEVICE);
  if (!gate) return;
  const programs: Array<{ no: string; name: string; pages: LedPage[]; screens: string[] }> = [
    {
      no: 'CANAL-LEVEL',
      name: '东干渠水位公告',
      pages: canalNotice(gate),
      screens: ['LED-P10-01', 'LED-P10-03'],
    },
    { no: 'SAVE-WATER', name: '节水宣传标语', pages: SLOGAN, screens: ['LED-P10-02'] },
  ];
  for (const program of programs) {
    await sql.query(
      `INSERT INTO monitor_led_program (tenant_id, program_no, program_name, width, height, content,
                                        remark, status, created_by, updated_by)
       VALUES ($1, $2, $3, 192, 96, $4::jsonb, $5, 1, $6, $6)
       ON CONFLICT DO NOTHING`,
      [
        tenantId,
        program.no,
        program.name,
        JSON.stringify(program.pages),
        '演示节目',
        userId ?? null,
      ],
    );
    const payload: LedProgramPayload = {
      programNo: program.no,
      width: 192,
      height: 96,
      pages: program.pages,
      values: {},
    };
    for (const screen of program.screens) {
      const screenId = idOf(screen);
      if (!screenId) continue;
      await sql.query(
        `INSERT INTO iot_command (tenant_id, created_by, username, device_id, name, params, status,
                                  timeout_seconds, expires_at)
         VALUES ($1, $2, 'admin', $3, $4, $5, 'pending', 120,
                 now() + make_interval(secs => $6))`,
        [
          tenantId,
          userId ?? null,
          screenId,
          LED_SET_PROGRAM,
          JSON.stringify({ programId: program.no, content: JSON.stringify(payload) }),
          // A day: the demo's screens are simulated when the server starts (SIM, on by default).
          Math.max(LED_SEND_EXPIRES_SECONDS, 24 * 3600),
        ],
      );
    }
  }
}
