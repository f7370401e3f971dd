import crypto from 'node:crypto';
import {
  PUBLIC_TRACE_SECTIONS,
  SUSPICIOUS_CLIENTS_PER_DAY,
  SUSPICIOUS_SCANS,
  type PublicTrace,
  type PublicTraceSection,
} from '@shuili/contract';
import type { Database, Sql } from '../../../db/database';
import { plotSensors } from './plot-sensors';
import {
  publicTraceRepo,
  type OriginRow,
  type PageSettingRow,
  type ShipmentRow,
} from './public-trace.repo';

const DAY_MS = 86_400_000;
const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** A client's address as stored with a scan: keyed (HMAC), so the table never holds addresses. */
export function clientHash(secret: string, clientKey: string): string {
  return crypto.createHmac('sha256', secret).update(clientKey).digest('base64url').slice(0, 22);
}

/** Which sections the tenant shows: every one unless its settings say false. */
export function sectionsOf(stored: Record<string, unknown> | null | undefined) {
  return Object.fromEntries(
    PUBLIC_TRACE_SECTIONS.map((section) => [section, stored?.[section] !== false]),
  ) as Record<PublicTraceSection, boolean>;
}

/**
 * The logo the page may show: a path on this server or an inline image. Anything else (another
 * site's address) is left out: the page's Content-Security-Policy would refuse it anyway.
 */
export function logoOf(stored: string | null | undefined): string | null {
  if (!stored) return null;
  if (/^\/(?![/\\])/.test(stored)) return stored;
  if (/^data:image\/(png|jpeg|gif|webp);base64,/i.test(stored)) return stored;
  return null;
}

/** When a code's scans look like a copied label (docs/traceability.md "Public page"). */
export function suspicionOf(count: number, clientsToday: number): PublicTrace['scans']['reason'] {
  if (count > SUSPICIOUS_SCANS) return 'scans';
  if (clientsToday > SUSPICIOUS_CLIENTS_PER_DAY) return 'clients';
  return null;
}

function temperatureOf(recorded: unknown): PublicTrace['shipments'][number]['temperature'] {
  if (!Array.isArray(recorded)) return null;
  const values = recorded
    .map((one) => (one && typeof one === 'object' ? (one as { celsius?: unknown }).celsius : null))
    .filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  if (values.length === 0) return null;
  return { min: Math.min(...values), max: Math.max(...values), readings: values.length };
}

const shipmentOf = (row: ShipmentRow): PublicTrace['shipments'][number] => ({
  source: 'entered',
  packageCount: row.package_count,
  carrier: row.carrier,
  fromPlace: row.from_place,
  toPlace: row.to_place,
  departedAt: row.departed_at.toISOString(),
  arrivedAt: iso(row.arrived_at),
  temperature: temperatureOf(row.temperatures),
});

/**
 * The public page of one trace code: the tenant is found from the code alone (a code is unique
 * across tenants), then everything is read in that tenant's transaction, so row-level security
 * confines every read to it. Counts the look-up as a scan. Undefined: no such code (or its
 * tenant is suspended).
 */
export class PublicTraceService {
  constructor(
    private readonly db: Database,
    private readonly hashSecret: string,
  ) {}

  async lookUp(
    code: string,
    client: { key: string; userAgent: string | null },
  ): Promise<PublicTrace | undefined> {
    const found = await this.db.system((sql) => publicTraceRepo.packageByCode(sql, code));
    if (!found) return undefined;
    return this.db.tenant(found.tenant_id, (sql) =>
      this.compose(sql, found.id, { scan: { key: client.key, userAgent: client.userAgent } }),
    );
  }

  /**
   * The page of one package batch as the public call answers it, in the tenant's transaction.
   * `setting` stands in for the saved settings (the settings page's preview), and without `scan`
   * nothing is counted: the scans are answered as they stand.
   */
  async compose(
    sql: Sql,
    packageId: string,
    options: { setting?: PageSettingRow; scan?: { key: string; userAgent: string | null } },
  ): Promise<PublicTrace | undefined> {
    const pkg = await publicTraceRepo.packageDetail(sql, packageId);
    if (!pkg) return undefined;
    const setting = options.setting ?? (await publicTraceRepo.pageSetting(sql));
    const sections = sectionsOf(setting?.sections);
    const origins = await publicTraceRepo.origins(sql, pkg);
    const work = sections.farmwork
      ? await publicTraceRepo.farmwork(
          sql,
          origins.map((origin) => origin.planting_id),
        )
      : [];
    const process = pkg.process_id ? await publicTraceRepo.process(sql, pkg.process_id) : undefined;
    const shipments = sections.logistics ? await publicTraceRepo.shipments(sql, pkg.id) : [];

    const originOf = async (row: OriginRow): Promise<PublicTrace['origins'][number]> => ({
      cropName: row.crop_name,
      variety: row.variety,
      base: sections.base ? { name: row.base_name, village: row.village } : null,
      plot: sections.base ? { name: row.area_name, areaMu: row.area_mu } : null,
      producer: sections.producer ? { name: row.producer_name, code: row.producer_code } : null,
      plantingCode: row.planting_code,
      sownAt: row.sown_at.toISOString(),
      harvest: {
        batchNo: row.batch_no,
        harvestedAt: row.harvested_at.toISOString(),
        quantity: row.quantity,
        unit: row.unit ?? 'kg',
        grade: row.grade,
        recalled: row.harvest_recalled_at !== null,
      },
      farmwork: work
        .filter((one) => one.planting_id === row.planting_id && one.done_at <= row.harvested_at)
        .map((one) => {
          const allowedFrom =
            one.phi_days === null ? null : new Date(one.done_at.getTime() + one.phi_days * DAY_MS);
          return {
            source: 'entered' as const,
            workType: one.work_type,
            product: one.product,
            dose: one.dose,
            doseUnit: one.dose_unit,
            doneAt: one.done_at.toISOString(),
            phiDays: one.phi_days,
            allowedFrom: iso(allowedFrom),
            respected: allowedFrom === null ? null : row.harvested_at >= allowedFrom,
          };
        }),
      sensors: sections.sensors
        ? await plotSensors(
            sql,
            await publicTraceRepo.areaDevices(sql, row.area_id),
            row.sown_at,
            row.harvested_at,
          )
        : null,
    });
    const originList: PublicTrace['origins'] = [];
    for (const row of origins) originList.push(await originOf(row));

    // The recall and its reason: the batch's own, else what it was made from.
    const recalledSource = [
      { at: pkg.recalled_at, reason: pkg.recall_reason },
      { at: process?.recalled_at ?? null, reason: process?.recall_reason ?? null },
      ...origins.map((row) => ({
        at: row.harvest_recalled_at,
        reason: row.harvest_recall_reason,
      })),
    ].find((one) => one.at !== null);

    const scans = options.scan
      ? await publicTraceRepo.scan(
          sql,
          pkg.id,
          clientHash(this.hashSecret, options.scan.key),
          options.scan.userAgent,
        )
      : await publicTraceRepo.scanStats(sql, pkg.id);
    const reason = suspicionOf(scans.count, scans.clients_today);
    const first = origins[0];
    return {
      code: pkg.trace_code,
      page: {
        title: setting?.title ?? null,
        color: setting?.color ?? null,
        logo: logoOf(setting?.logo),
        contact: setting?.contact ?? null,
        sections,
      },
      recall: {
        recalled: pkg.recalled,
        at: pkg.recalled ? iso(recalledSource?.at ?? null) : null,
        reason: pkg.recalled ? (recalledSource?.reason ?? null) : null,
      },
      product:
        sections.product && first
          ? {
              cropName: first.crop_name,
              variety: first.variety,
              gtin: pkg.gtin,
              lot: pkg.lot,
              packageCount: pkg.package_count,
              netQuantity: pkg.net_quantity,
              unit: pkg.unit ?? 'kg',
              packedAt: pkg.packed_at.toISOString(),
              bestBefore: iso(pkg.best_before),
            }
          : null,
      producer:
        sections.producer && first
          ? { name: first.producer_name, code: first.producer_code, commitment: first.commitment }
          : null,
      origins: originList,
      processing:
        sections.processing && process
          ? [
              {
                processNo: process.process_no,
                processType: process.process_type,
                startedAt: process.started_at.toISOString(),
                endedAt: iso(process.ended_at),
                inputQuantity: process.input_quantity,
                outputQuantity: process.output_quantity,
                unit: process.output_unit ?? 'kg',
              },
            ]
          : [],
      shipments: shipments.map(shipmentOf),
      scans: {
        count: scans.count,
        firstAt: scans.first_at.toISOString(),
        suspicious: reason !== null,
        reason,
      },
    };
  }
}
