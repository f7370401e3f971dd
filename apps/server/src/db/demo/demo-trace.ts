import { newTraceCode } from '@shuili/contract';
import type { Sql } from '../database';

/** Where the demo district's bases lie when it has no located device (south of Jinan). */
const FALLBACK = { lat: 36.56, lng: 117.02 };

/** A square plot of `side` metres with its south-west corner `east`/`north` metres from a point. */
function squarePlot(at: { lat: number; lng: number }, east: number, north: number, side: number) {
  const metresPerDegreeLat = 111_320;
  const metresPerDegreeLng = 111_320 * Math.cos((at.lat * Math.PI) / 180);
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  const lng0 = round(at.lng + east / metresPerDegreeLng);
  const lat0 = round(at.lat + north / metresPerDegreeLat);
  const lng1 = round(lng0 + side / metresPerDegreeLng);
  const lat1 = round(lat0 + side / metresPerDegreeLat);
  return JSON.stringify({
    type: 'Polygon',
    coordinates: [
      [
        [lng0, lat0],
        [lng1, lat0],
        [lng1, lat1],
        [lng0, lat1],
        [lng0, lat0],
      ],
    ],
  });
}

/** 1 mu = 666.67 m²: a square of `side` metres in mu, to 2 decimals. */
const muOf = (side: number) => Math.round(((side * side) / (10_000 / 15)) * 100) / 100;

/**
 * Farm traceability for the demo district (issue 21), so every traceability screen and the
 * public page show a whole chain at first sight: one cooperative with two bases in demo villages
 * beside the district's devices, four plots (outlines, the soil-moisture and weather stations
 * serving them), three varieties with GTINs (check digits verified), plantings with growth
 * records and farm work (a tomato spraying whose 7-day pre-harvest interval the harvest
 * respects), three harvests, a milling, three package batches with trace codes, shipments with
 * cold-chain temperatures, a few scans, and one recalled batch. Dates are of the last finished
 * season, a wheat planting of this autumn is still growing (its plot's readings are recent), and
 * the newest batch (greenhouse cucumbers, seedNewestBatch) is dated from today.
 */
export async function seedDemoTrace(
  sql: Sql,
  tenantId: string,
  userIds: readonly string[],
): Promise<void> {
  const adminId = userIds[0] ?? null;
  const now = new Date();
  // The season whose harvest is over: this year's from November, else last year's.
  const year = now.getUTCMonth() >= 10 ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
  const at = (monthDay: string, time = '08:00', y = year) => `${y}-${monthDay}T${time}:00+08:00`;

  const insert = async (table: string, values: Record<string, unknown>): Promise<string> => {
    const columns = ['tenant_id', 'created_by', ...Object.keys(values)];
    const params = [tenantId, adminId, ...Object.values(values)];
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO ${table} (${columns.join(', ')})
       VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id::text`,
      params,
    );
    return rows[0]!.id;
  };

  const { rows: devices } = await sql.query<{
    id: string;
    kind: string;
    lat: number | null;
    lng: number | null;
  }>(
    `SELECT d.id::text, p.device_kind AS kind, d.lat, d.lng
       FROM iot_device d JOIN iot_product p ON p.id = d.product_id
      WHERE d.tenant_id = $1 AND p.device_kind IN ('soil_moisture', 'weather_station')
      ORDER BY p.device_kind, d.id`,
    [tenantId],
  );
  const soil = devices.filter((device) => device.kind === 'soil_moisture');
  const weather = devices.filter((device) => device.kind === 'weather_station');
  const located = (device: (typeof devices)[number] | undefined) =>
    device?.lat != null && device.lng != null
      ? { lat: Number(device.lat), lng: Number(device.lng) }
      : undefined;
  const east = located(soil[0]) ?? located(weather[0]) ?? FALLBACK;
  const west = located(soil[1]) ?? {
    lat: Math.round((east.lat + 0.012) * 1e6) / 1e6,
    lng: Math.round((east.lng - 0.018) * 1e6) / 1e6,
  };

  const producerId = await insert('trace_producer', {
    producer_name: '东庄农业专业合作社',
    producer_code: 'DZ-COOP-01',
    contact: '王建国',
    phone: '0531-88886666',
    address: '济南市历城区东庄村村委会东100米',
    cert_language: 'zh',
    commitment:
      '本社承诺：不使用禁用农药兽药、停用兽药和非法添加物，常规农药兽药残留不超标，严格执行农药安全间隔期，对产品质量安全负责。',
  });
  const baseEast = await insert('trace_base', {
    base_name: '东庄粮菜基地',
    producer_id: producerId,
    village: '东庄村',
    address: '东庄村北，干渠东侧',
    longitude: east.lng,
    latitude: east.lat,
    area_mu: 120,
    description: '小麦—玉米轮作，配套墒情与气象监测站。',
  });
  const baseWest = await insert('trace_base', {
    base_name: '西河设施蔬菜基地',
    producer_id: producerId,
    village: '西河村',
    address: '西河村南，日光温室区',
    longitude: west.lng,
    latitude: west.lat,
    area_mu: 60,
    description: '日光温室番茄，滴灌水肥一体化。',
  });

  const plots = [
    {
      name: '东庄1号地',
      base: baseEast,
      at: east,
      e: 40,
      n: 40,
      side: 160,
      soil: '壤土',
      devices: [soil[0], weather[0]],
    },
    {
      name: '东庄2号地',
      base: baseEast,
      at: east,
      e: -200,
      n: 40,
      side: 150,
      soil: '壤土',
      devices: [soil[0]],
    },
    {
      name: '东庄3号地',
      base: baseEast,
      at: east,
      e: 40,
      n: -200,
      side: 120,
      soil: '砂壤土',
      devices: [weather[0]],
    },
    {
      name: '西河温室A区',
      base: baseWest,
      at: west,
      e: 30,
      n: 30,
      side: 80,
      soil: '黏壤土',
      devices: [soil[1] ?? soil[0], weather[1] ?? weather[0]],
    },
  ];
  const plotIds: string[] = [];
  for (const plot of plots) {
    const id = await insert('trace_area', {
      area_name: plot.name,
      base_id: plot.base,
      polygon: squarePlot(plot.at, plot.e, plot.n, plot.side),
      area_mu: muOf(plot.side),
      soil: plot.soil,
    });
    plotIds.push(id);
    for (const device of new Set(plot.devices.filter((one) => one !== undefined)))
      await sql.query(
        `INSERT INTO trace_area_device (tenant_id, area_id, device_id) VALUES ($1, $2, $3)`,
        [tenantId, id, device.id],
      );
  }

  const wheat = await insert('trace_plant', {
    crop_name: '小麦',
    variety: '济麦22',
    category: 'grain',
    gtin: '06901234567892',
    growth_days: 240,
    description: '半冬性中晚熟品种，抗倒伏，适宜黄淮北片水肥地种植。',
  });
  const maize = await insert('trace_plant', {
    crop_name: '玉米',
    variety: '郑单958',
    category: 'grain',
    gtin: '06901234567885',
    growth_days: 100,
    description: '夏播中熟品种，耐密植，稳产性好。',
  });
  const tomato = await insert('trace_plant', {
    crop_name: '番茄',
    variety: '普罗旺斯',
    category: 'vegetable',
    gtin: '06901234567878',
    growth_days: 110,
    description: '大果粉番茄，口感沙甜，适宜日光温室栽培。',
  });

  // Greenhouse cucumbers of this autumn: the newest batch, dated from today (below).
  const cucumber = await insert('trace_plant', {
    crop_name: '黄瓜',
    variety: '津优35',
    category: 'vegetable',
    gtin: '06901234567861',
    growth_days: 60,
    description: '华北型密刺黄瓜，瓜条顺直，适宜日光温室秋冬茬栽培。',
  });

  const planting = (
    code: string,
    plot: number,
    plant: string,
    sown: string,
    expected: string,
    state: string,
  ) =>
    insert('trace_planting', {
      planting_code: code,
      area_id: plotIds[plot],
      plant_id: plant,
      sown_at: sown,
      expected_harvest_at: expected,
      state,
    });
  const wheatPlanting = await planting(
    `P${year - 1}-W01`,
    0,
    wheat,
    at('10-08', '08:00', year - 1),
    at('06-05'),
    'harvested',
  );
  const maizePlanting = await planting(
    `P${year}-M01`,
    1,
    maize,
    at('06-12'),
    at('10-01'),
    'harvested',
  );
  const tomatoPlanting = await planting(
    `P${year}-T01`,
    3,
    tomato,
    at('03-01'),
    at('06-20'),
    'harvested',
  );
  const growing = await planting(
    `P${year}-W02`,
    0,
    wheat,
    at('10-12'),
    at('06-05', '08:00', year + 1),
    'growing',
  );

  const growth: Array<[string, string, string, string]> = [
    [wheatPlanting, at('11-05', '09:00', year - 1), 'seedling', '出苗整齐，三叶一心。'],
    [wheatPlanting, at('03-20'), 'vegetative', '返青拔节，群体适中。'],
    [wheatPlanting, at('04-28'), 'flowering', '扬花期，未见病虫害。'],
    [wheatPlanting, at('05-30'), 'mature', '蜡熟末期，籽粒饱满。'],
    [maizePlanting, at('07-10'), 'vegetative', '拔节期，长势良好。'],
    [maizePlanting, at('09-20'), 'mature', '乳线消失，黑层出现。'],
    [tomatoPlanting, at('04-15'), 'flowering', '第一穗花开放，熊蜂授粉。'],
    [tomatoPlanting, at('05-20'), 'fruiting', '第三穗果膨大，转色均匀。'],
    [growing, at('10-30'), 'seedling', '出苗均匀，墒情适宜。'],
  ];
  for (const [plantingId, recorded, stage, note] of growth)
    await insert('trace_growth_record', {
      planting_id: plantingId,
      recorded_at: recorded,
      stage,
      note,
    });

  const work: Array<
    [string, string, string | null, number | null, string | null, string, number | null]
  > = [
    [
      wheatPlanting,
      'fertilizing',
      '复合肥(15-15-15)',
      40,
      'kg/亩',
      at('10-06', '08:00', year - 1),
      null,
    ],
    [wheatPlanting, 'irrigation', '返青水', 40, 'm³/亩', at('03-05'), null],
    [wheatPlanting, 'spraying', '吡虫啉10%可湿性粉剂', 20, 'g/亩', at('05-06'), 14],
    [maizePlanting, 'weeding', '硝磺草酮·莠去津', 100, 'ml/亩', at('06-25'), null],
    [maizePlanting, 'fertilizing', '尿素', 15, 'kg/亩', at('07-20'), null],
    [tomatoPlanting, 'fertilizing', '水溶肥(20-20-20)', 5, 'kg/亩', at('04-20'), null],
    [tomatoPlanting, 'irrigation', '滴灌', 8, 'm³/亩', at('05-25'), null],
    // Harvested on the 20th: the 7-day interval ended on the 17th.
    [tomatoPlanting, 'spraying', '阿维菌素1.8%乳油', 30, 'ml/亩', at('06-10'), 7],
  ];
  for (const [plantingId, type, product, dose, unit, done, phi] of work)
    await insert('trace_farmwork', {
      planting_id: plantingId,
      work_type: type,
      product,
      dose,
      dose_unit: unit,
      operator: '张伟',
      done_at: done,
      phi_days: phi,
    });

  const harvest = (no: string, plantingId: string, date: string, quantity: number, grade: string) =>
    insert('trace_harvest', {
      batch_no: no,
      planting_id: plantingId,
      harvested_at: date,
      quantity,
      unit: 'kg',
      grade,
    });
  const wheatHarvest = await harvest(`H${year}0605-W01`, wheatPlanting, at('06-05'), 15000, '一等');
  const maizeHarvest = await harvest(`H${year}1001-M01`, maizePlanting, at('10-01'), 12000, '二等');
  const tomatoHarvest = await harvest(
    `H${year}0620-T01`,
    tomatoPlanting,
    at('06-20'),
    3000,
    '特级',
  );

  // Milling 2,000 kg of wheat at 75 % gives 1,500 kg of flour.
  const milling = await insert('trace_process', {
    process_no: `M${year}0610-01`,
    process_type: 'milling',
    started_at: at('06-10'),
    ended_at: at('06-10', '17:00'),
    expected_yield: 0.75,
    output_quantity: 1500,
    output_unit: 'kg',
  });
  await insert('trace_process_input', {
    process_id: milling,
    harvest_id: wheatHarvest,
    quantity: 2000,
  });

  const pack = (values: Record<string, unknown>) =>
    insert('trace_package', { trace_code: newTraceCode(), unit: 'kg', ...values });
  const flour = await pack({
    process_id: milling,
    gtin: '06901234567892',
    lot: `M${year}0610-01`,
    package_count: 300,
    net_quantity: 5,
    packed_at: at('06-11'),
    best_before: at('06-11', '08:00', year + 1),
  });
  const corn = await pack({
    harvest_id: maizeHarvest,
    gtin: '06901234567885',
    lot: `H${year}1001-M01`,
    package_count: 200,
    net_quantity: 25,
    packed_at: at('10-03'),
    best_before: at('10-03', '08:00', year + 1),
  });
  // A residue re-test of the tomatoes was positive: the batch is recalled (its page says so).
  const tomatoes = await pack({
    harvest_id: tomatoHarvest,
    gtin: '06901234567878',
    lot: `H${year}0620-T01`,
    package_count: 500,
    net_quantity: 5,
    packed_at: at('06-20', '15:00'),
    best_before: at('06-30'),
    recalled_at: at('06-24', '10:00'),
    recall_reason: '抽检复测农残超标，主动召回该批次。',
  });

  const temperatures = (start: string, values: number[]) =>
    JSON.stringify(
      values.map((celsius, i) => ({
        at: new Date(new Date(start).getTime() + (i + 1) * 3_600_000).toISOString(),
        celsius,
      })),
    );
  const ship = (values: Record<string, unknown>) => insert('trace_shipment', values);
  await ship({
    package_id: flour,
    package_count: 200,
    carrier: '济南顺达物流',
    vehicle: '鲁A·3K582',
    from_place: '东庄村',
    to_place: '济南市历下区粮油批发市场',
    departed_at: at('06-12'),
    arrived_at: at('06-12', '11:00'),
  });
  await ship({
    package_id: corn,
    package_count: 120,
    carrier: '历城农运',
    vehicle: '鲁A·7M301',
    from_place: '东庄村',
    to_place: '济南饲料厂',
    departed_at: at('10-05'),
    arrived_at: at('10-05', '12:00'),
  });
  await ship({
    package_id: tomatoes,
    package_count: 300,
    carrier: '鲁冷链',
    vehicle: '鲁A·L9021',
    from_place: '西河村',
    to_place: '济南市匡山农产品批发市场',
    departed_at: at('06-21', '05:00'),
    arrived_at: at('06-21', '09:00'),
    temperatures: temperatures(at('06-21', '05:00'), [4.2, 4.8, 5.1, 4.6]),
  });

  await seedNewestBatch(insert, plotIds[3]!, cucumber, now);

  // A few look-ups of the flour's code (first scan and count on the package list).
  for (const [day, hash] of [
    ['06-15', 'a1'],
    ['06-18', 'b2'],
    ['06-18', 'c3'],
  ] as const)
    await sql.query(
      `INSERT INTO trace_scan (tenant_id, package_id, scanned_at, client_hash, user_agent)
       VALUES ($1, $2, $3, $4, 'Mozilla/5.0 (Linux; Android 14) Mobile')`,
      [tenantId, flour, at(day, '19:30'), hash],
    );
}

const DAY_MS = 86_400_000;

/**
 * The newest batch, dated from today: greenhouse cucumbers on the Xihe plot, sown 60 days ago and
 * harvested two days ago, packed and shipped since. Its growing season overlaps the demo's
 * simulated device history (DEMO_HISTORY_DAYS, the last days before the server's first start),
 * so the first public page a user opens, this newest code's, shows rainfall, temperature and soil
 * moisture recorded by the plot's devices. The rules hold: the spraying's 3-day interval ended a
 * week before the harvest; 1,500 kg packed of 1,800 kg harvested, 200 of 300 packages shipped.
 */
async function seedNewestBatch(
  insert: (table: string, values: Record<string, unknown>) => Promise<string>,
  plotId: string,
  plantId: string,
  now: Date,
): Promise<void> {
  // Whole hours, `days` (fractional) before now.
  const ago = (days: number) =>
    new Date(Math.floor((now.getTime() - days * DAY_MS) / 3_600_000) * 3_600_000).toISOString();
  const harvestedAt = ago(2);
  const stamp = harvestedAt.slice(0, 10).replace(/-/g, '');
  const plantingId = await insert('trace_planting', {
    planting_code: `P${stamp}-C01`,
    area_id: plotId,
    plant_id: plantId,
    sown_at: ago(60),
    expected_harvest_at: harvestedAt,
    state: 'harvested',
  });
  const growth: Array<[number, string, string]> = [
    [48, 'seedling', '定植缓苗，根系发白。'],
    [32, 'vegetative', '吊蔓整枝，节间均匀。'],
    [20, 'flowering', '雌花节率高，温室昼温26℃左右。'],
    [8, 'fruiting', '根瓜采收，腰瓜膨大，瓜条顺直。'],
  ];
  for (const [days, stage, note] of growth)
    await insert('trace_growth_record', {
      planting_id: plantingId,
      recorded_at: ago(days),
      stage,
      note,
    });
  const work: Array<[string, string, number, string, number, number | null]> = [
    ['fertilizing', '生物有机肥', 500, 'kg/亩', 58, null],
    ['irrigation', '滴灌', 6, 'm³/亩', 15, null],
    // Harvested two days ago: the 3-day interval ended nine days ago.
    ['spraying', '枯草芽孢杆菌可湿性粉剂', 100, 'g/亩', 12, 3],
  ];
  for (const [type, product, dose, unit, days, phi] of work)
    await insert('trace_farmwork', {
      planting_id: plantingId,
      work_type: type,
      product,
      dose,
      dose_unit: unit,
      operator: '李娜',
      done_at: ago(days),
      phi_days: phi,
    });
  const harvestId = await insert('trace_harvest', {
    batch_no: `H${stamp}-C01`,
    planting_id: plantingId,
    harvested_at: harvestedAt,
    quantity: 1800,
    unit: 'kg',
    grade: '一等',
  });
  const packageId = await insert('trace_package', {
    trace_code: newTraceCode(),
    unit: 'kg',
    harvest_id: harvestId,
    gtin: '06901234567861',
    lot: `H${stamp}-C01`,
    package_count: 300,
    net_quantity: 5,
    packed_at: ago(1.75),
    best_before: ago(-8),
  });
  const departed = ago(1);
  await insert('trace_shipment', {
    package_id: packageId,
    package_count: 200,
    carrier: '鲁冷链',
    vehicle: '鲁A·L9021',
    from_place: '西河村',
    to_place: '济南市匡山农产品批发市场',
    departed_at: departed,
    arrived_at: ago(0.85),
    temperatures: JSON.stringify(
      [8.1, 7.6, 7.9].map((celsius, i) => ({
        at: new Date(new Date(departed).getTime() + (i + 1) * 3_600_000).toISOString(),
        celsius,
      })),
    ),
  });
}
