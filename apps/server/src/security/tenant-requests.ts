import {
  DEVICE_FILE_CALLS,
  FLOOD_CALLS,
  INSECT_CALLS,
  JOB_CALLS,
  TRACE_CHAIN_CALLS,
  TRACE_PHOTO_CALLS,
} from '@shuili/contract';
import type { RouteEntry } from '../http/route-table';
import { TEST_THING_MODEL } from '../modules/iot/telemetry/telemetry-test-fixtures';
import { buildRequest, type RouteRequest } from './route-requests';
import { entityCallOf, fixtureKey, targetedFields } from './route-targets';
import { PNG, type TenantFixtures } from './tenant-fixtures';

/** How the suites name a route: its methods and URL. */
export const routeKey = (route: RouteEntry) => `${route.methods.join(',')} ${route.url}`;

/** A call that only reads (lists, details, exports, downloads): it may be repeated freely. */
export function isRead(route: RouteEntry): boolean {
  return route.methods.includes('GET') || /\/(query|export|download)[^/]*$/.test(route.url);
}

/** Bodies the JSON sampler cannot make: uploads take raw bytes. */
const RAW_BODIES: Record<string, RouteRequest['raw']> = {
  [DEVICE_FILE_CALLS.upload]: {
    bytes: Buffer.from('probe file'),
    type: 'application/octet-stream',
  },
  // An image a species takes: only the species named can stop it.
  [INSECT_CALLS.uploadSpeciesPicture]: { bytes: PNG, type: 'application/octet-stream' },
  // A photo of a base or growth record: only the one named can stop it.
  [TRACE_PHOTO_CALLS.baseUpload]: { bytes: PNG, type: 'application/octet-stream' },
  [TRACE_PHOTO_CALLS.growthUpload]: { bytes: PNG, type: 'application/octet-stream' },
};

/**
 * Values of one route's fields the sampler would get wrong for it, so only the objects named can
 * stop the call: a name the upload accepts, thresholds that pass their checks (none: removed).
 */
const ROUTE_FIELD_VALUES: Record<string, Record<string, unknown>> = {
  [INSECT_CALLS.uploadSpeciesPicture]: { fileName: 'probe.png' },
  [TRACE_PHOTO_CALLS.baseUpload]: { fileName: 'probe.png' },
  [TRACE_PHOTO_CALLS.growthUpload]: { fileName: 'probe.png' },
  [FLOOD_CALLS.updateThresholds]: { thresholds: null },
  // The chain of the package batch fixture (its id: route-targets.ts ID_OWNERS).
  [TRACE_CHAIN_CALLS.query]: { kind: 'package' },
  [TRACE_CHAIN_CALLS.epcis]: { kind: 'package' },
  // A DAG that needs no job (one decision node): only the workflow named can stop the save.
  [JOB_CALLS.saveWorkflowDag]: {
    dag: {
      nodes: [
        {
          id: 'check',
          type: 'decision',
          name: 'Check',
          enable: true,
          skipWhenFailed: false,
          condition: { key: 'area', operator: 'exists' },
        },
      ],
      edges: [],
    },
  },
};

/** Values the zod sampler cannot guess (cross-field rules, password policy, a thing model). */
const FIELD_VALUES: Record<string, unknown> = {
  // A property of the fixture device's thing model (TEST_THING_MODEL).
  keys: 'flow',
  oldPassword: 'admin123',
  newPassword: 'Probe-pass-7319!',
  thingModel: TEST_THING_MODEL,
  // Opening valves takes a duration (optional for a close, required for an open).
  durationMinutes: 30,
};

/**
 * A request for a route aimed at a tenant's fixtures: every id, reference, key and list filter
 * names that tenant's objects; other fields are valid values (the entity's own sample for adds
 * and updates, else a sample of the zod schema). Answers a problem when a field names a table
 * with no fixture or the request would not pass the route's schema.
 */
export function tenantRequest(
  route: RouteEntry,
  fixtures: TenantFixtures,
): { request: RouteRequest; markers: boolean } | { problem: string } {
  const targeted = new Map(targetedFields(route).map((field) => [field.name, field.target!]));
  const generic = entityCallOf(route.url);
  const own =
    generic && (generic.call === 'add' || generic.call === 'update')
      ? fixtures.byTable.get(generic.entity.table)?.values
      : undefined;
  let unresolved: string | undefined;
  let markers = false;
  const built = buildRequest(
    route,
    (field) => {
      const target = targeted.get(field.name);
      const routeValues = ROUTE_FIELD_VALUES[route.url];
      if (!target && routeValues && field.name in routeValues) return routeValues[field.name];
      if (!target) return own?.[field.name] ?? FIELD_VALUES[field.name];
      const key = fixtureKey(target);
      const fixture = fixtures.byTable.get(key);
      if (!fixture) {
        unresolved ??= `${field.part}.${field.name} names ${key}, which has no fixture`;
        return undefined;
      }
      if (fixture.marker) markers = true;
      return target.field === 'id' ? fixture.id : fixture.values[target.field];
    },
    RAW_BODIES[route.url],
  );
  if (unresolved) return { problem: unresolved };
  if (built.problem !== undefined) return { problem: built.problem };
  return { request: built.request, markers };
}
