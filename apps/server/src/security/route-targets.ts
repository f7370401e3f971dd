import {
  CARD_CALLS,
  ENTITIES,
  entityCalls,
  FLOOD_CALLS,
  INSECT_CALLS,
  JOB_CALLS,
  LED_CALLS,
  TRACE_CHAIN_CALLS,
  TRACE_PHOTO_CALLS,
  type EntityDef,
} from '@shuili/contract';
import { ENTITY_SAMPLES } from '../entity/entity-samples';
import type { RouteEntry } from '../http/route-table';
import { routeFields, type InputPart } from './route-requests';

/**
 * What a request field names: an object of a table (its id, or the value of one of its unique
 * fields), or a list filter matched against the sample row of the route's own entity.
 */
export type FieldTarget =
  | { kind: 'object'; table: string; field: string; sort?: string }
  | { kind: 'filter'; table: string; field: string };

/** The key of the fixture a target names: its table's, or (a sort of row) `<table>:<sort>`. */
export const fixtureKey = (target: FieldTarget) =>
  target.kind === 'object' && target.sort ? `${target.table}:${target.sort}` : target.table;

/** The generic call of an entity a URL is, if any. */
export function entityCallOf(
  url: string,
): { entity: EntityDef; call: keyof ReturnType<typeof entityCalls> } | undefined {
  for (const entity of ENTITIES) {
    const calls = entityCalls(entity);
    for (const [call, callUrl] of Object.entries(calls))
      if (callUrl === url) return { entity, call: call as keyof typeof calls };
  }
  return undefined;
}

/**
 * Routes outside the generic entity calls whose `id` names an object the URL prefix alone does
 * not tell (two entities share the prefix, or none does).
 */
const ID_OWNERS: Record<string, string> = {
  '/api/iot/alarm/acknowledgeAlarm': 'iot_alarm_record',
  '/api/admin/sysmenu/deleteDataField': 'sys_data_permission',
  '/api/account/sysuserdetail/updatePassword': 'sys_user',
  '/api/account/sysuserdetail/switchMenu': 'sys_menu',
  '/api/account/session/signOutSession': 'user_session',
  // A rotation schedule's runs (or a soil rule's, by `kind`): the sampler's kind is rotation.
  '/api/monitor/irrigation/queryScheduleRun': 'monitor_rotation_schedule',
  // The species catalogue and the photo labels share the insect prefix.
  [INSECT_CALLS.speciesPicture]: 'monitor_insect_species',
  [INSECT_CALLS.uploadSpeciesPicture]: 'monitor_insect_species',
  // A batch's chain by kind and id: the suites ask for a package batch's (tenant-requests.ts).
  [TRACE_CHAIN_CALLS.query]: 'trace_package',
  [TRACE_CHAIN_CALLS.epcis]: 'trace_package',
  // Trace photos: listed and added by their base's or growth record's id, then by their own.
  [TRACE_PHOTO_CALLS.baseList]: 'trace_base',
  [TRACE_PHOTO_CALLS.baseUpload]: 'trace_base',
  [TRACE_PHOTO_CALLS.growthList]: 'trace_growth_record',
  [TRACE_PHOTO_CALLS.growthUpload]: 'trace_growth_record',
  [TRACE_PHOTO_CALLS.download]: 'trace_photo',
  [TRACE_PHOTO_CALLS.delete]: 'trace_photo',
};

/**
 * Fields of area calls whose name does not tell the row they take: a program of the LED area's
 * own, or one sort of row of a table, not any: the devices of the area's kind (another device is
 * refused, or left out, for its own tenant too), the commands of an LED program's sends.
 * tenant-fixtures.ts makes a fixture of each sort.
 */
const FIELD_TARGETS: Record<
  string,
  Record<string, { table: string; sort?: string; field?: string }>
> = {
  // A workflow run's node, by its DAG node id (the node instance fixture's).
  [JOB_CALLS.markNodeSuccess]: { nodeId: { table: 'workflow_node_instance', field: 'nodeId' } },
  [INSECT_CALLS.photos]: { deviceId: { table: 'iot_device', sort: 'insect_trap' } },
  [INSECT_CALLS.photoDays]: { deviceId: { table: 'iot_device', sort: 'insect_trap' } },
  [INSECT_CALLS.latestPhotos]: { deviceIds: { table: 'iot_device', sort: 'insect_trap' } },
  [FLOOD_CALLS.status]: { deviceIds: { table: 'iot_device', sort: 'flood_station' } },
  [FLOOD_CALLS.thresholds]: { deviceId: { table: 'iot_device', sort: 'flood_station' } },
  [FLOOD_CALLS.updateThresholds]: { deviceId: { table: 'iot_device', sort: 'flood_station' } },
  [LED_CALLS.send]: {
    programId: { table: 'monitor_led_program' },
    deviceIds: { table: 'iot_device', sort: 'led_screen' },
  },
  [LED_CALLS.sends]: { commandIds: { table: 'iot_command', sort: 'setProgram' } },
  // The service desk's card writes (tenant-fixtures.ts makes one of the card fixture).
  [CARD_CALLS.confirmWrite]: { writeId: { table: 'billing_card_write' } },
  [CARD_CALLS.reverseWrite]: { writeId: { table: 'billing_card_write' } },
};

/** The table an `id` of a non-entity route names: the override, else the one entity under its path. */
function idOwner(url: string): string | undefined {
  if (ID_OWNERS[url]) return ID_OWNERS[url];
  const owners = new Set(
    ENTITIES.filter((entity) => url.startsWith(`${entity.path}/`)).map((entity) => entity.table),
  );
  return owners.size === 1 ? [...owners][0] : undefined;
}

/** `<name>Id` / `<name>Ids` → table, learnt from the entities' reference fields. */
const REFERENCE_NAMES: Map<string, string | null> = (() => {
  const names = new Map<string, string | null>();
  const learn = (name: string, table: string) => {
    const known = names.get(name);
    names.set(name, known === undefined || known === table ? table : null);
  };
  for (const entity of ENTITIES)
    for (const [name, field] of Object.entries(entity.fields)) {
      const target = field.ref ?? field.link;
      if (target) learn(name.replace(/Ids?$/, ''), target.table);
    }
  for (const entity of ENTITIES) {
    // sys_user → user, iot_device → device, sys_menu_button → button
    const base = entity.table
      .replace(/^(sys|iot)_/, '')
      .split('_')
      .pop()!;
    if (!names.has(base)) learn(base, entity.table);
  }
  return names;
})();

/** Unique fields that name one object (codes, numbers, usernames), learnt from the entities. */
const OBJECT_KEYS: Map<string, string | null> = (() => {
  const keys = new Map<string, string | null>();
  for (const entity of ENTITIES)
    for (const [name, field] of Object.entries(entity.fields)) {
      // Contact details are unique but identify a person only in sign-in flows (public routes).
      if (!field.unique || name === 'mobile' || name === 'email') continue;
      const known = keys.get(name);
      keys.set(name, known === undefined || known === entity.table ? entity.table : null);
    }
  return keys;
})();

/** What one field of a route names, or undefined for a plain value (a name, a flag, a page). */
export function targetOf(
  route: RouteEntry,
  field: { name: string; part: InputPart },
): FieldTarget | undefined {
  const declared = FIELD_TARGETS[route.url]?.[field.name];
  if (declared) return { kind: 'object', field: 'id', ...declared };
  const generic = entityCallOf(route.url);
  if (generic) {
    const { entity, call } = generic;
    if (field.name === 'id' || field.name === 'ids')
      return { kind: 'object', table: entity.table, field: 'id' };
    // The tree call's parent is an object; the list's parentId only narrows it (left out).
    if (field.name === 'parentId')
      return call === 'tree' ? { kind: 'object', table: entity.table, field: 'id' } : undefined;
    if (field.name === entity.key)
      return { kind: 'object', table: entity.table, field: entity.key };
    const declared = entity.fields[field.name];
    const reference = declared?.ref ?? declared?.link;
    const reads = call === 'query' || call.startsWith('export');
    // A list is filtered by the fixture row's own values (its references included), so the
    // filter selects that row; writes aim their references at the other tables' fixtures.
    if (reads && (reference || ENTITY_SAMPLES[entity.name]?.search === field.name))
      return { kind: 'filter', table: entity.table, field: field.name };
    if (reference) return { kind: 'object', table: reference.table, field: 'id' };
    return undefined;
  }
  if (field.name === 'id' || field.name === 'ids' || field.name === 'parentId') {
    const table = idOwner(route.url);
    return table
      ? { kind: 'object', table, field: 'id' }
      : { kind: 'object', table: '?', field: 'id' };
  }
  const reference = /^(\w+?)Ids?$/.exec(field.name)?.[1];
  if (reference !== undefined) {
    // The spec also names references by table ("sysUserId" for a sys_user, as "userId").
    const unprefixed = reference.replace(/^(sys|iot)([A-Z])/, (_, _prefix, first: string) =>
      first.toLowerCase(),
    );
    const table = REFERENCE_NAMES.get(reference) ?? REFERENCE_NAMES.get(unprefixed);
    return { kind: 'object', table: table ?? '?', field: 'id' };
  }
  const keyTable = OBJECT_KEYS.get(field.name);
  if (keyTable) return { kind: 'object', table: keyTable, field: field.name };
  return undefined;
}

/** The fields of a route that name objects or filter lists: the route's isolation surface. */
export function targetedFields(route: RouteEntry) {
  return routeFields(route)
    .map((field) => ({ ...field, target: targetOf(route, field) }))
    .filter((field) => field.target !== undefined);
}
