import {
  alarmRecordEntity,
  entityCalls,
  iotCommandEntity,
  ROLE_ADMIN,
  TELEMETRY_CALLS,
} from '@shuili/contract';
import { EVERYTHING } from '../db/announced-cache';
import { confinesDevices, type Database } from '../db/database';
import type { UrlGrantService } from '../modules/authority/url-grant.service';
import {
  type AccessChange,
  type AccessChecks,
  parseAccessChange,
} from '../modules/uaa/access-checks';
import type { SessionChecks } from '../modules/uaa/session-checks';

/** What a browser's live data is about (contract liveTopicSubject). */
export type LiveStream = 'data' | 'command' | 'alarm';

/**
 * The HTTP call whose grant lets a user read each live stream: live data follows the same
 * permissions as HTTP (a role that gets 403 on device readings gets none over MQTT either).
 */
const STREAM_GRANTS: ReadonlyArray<[LiveStream, string]> = [
  ['data', TELEMETRY_CALLS.latest],
  ['command', entityCalls(iotCommandEntity).query],
  ['alarm', entityCalls(alarmRecordEntity).query],
];

/** What one browser connection may receive now. */
export interface LiveFilter {
  streams: ReadonlySet<LiveStream>;
  /** The device numbers of the user's device scope (zones, projects); null: every device. */
  deviceNos: ReadonlySet<string> | null;
}

/** A browser connection's identity, as its access token said at CONNECT. */
export interface BrowserIdentity {
  tenantId: string;
  userId: string;
  sessionId: string;
}

/** Something changed that may narrow or end what connected browsers receive. */
export type BrowserAccessChange = { kind: 'session'; sessionId: string } | AccessChange;

/**
 * Whether a browser may stay connected and what it may receive: its session alive, its tenant
 * active, its account enabled, and then its roles' grants and device scope, from the same live
 * state as the HTTP guard (SessionChecks, AccessChecks). Changes are told to watchers (the
 * broker), which re-ask for the connections they concern.
 */
export class BrowserAccess {
  constructor(
    private readonly deps: {
      db: Database;
      sessions: SessionChecks;
      access: AccessChecks;
      grants: UrlGrantService;
    },
  ) {}

  /**
   * The filter for this browser now, with how long its session lasts by itself (idle or
   * absolute end); undefined when it may not stay connected.
   */
  async filterFor(
    browser: BrowserIdentity,
  ): Promise<{ filter: LiveFilter; sessionEndsInMs: number } | undefined> {
    const session = await this.deps.sessions.check(browser.sessionId);
    if (!session.ok) return undefined;
    const filter = await this.readFilter(browser.tenantId, browser.userId);
    return filter && { filter, sessionEndsInMs: session.endsInMs };
  }

  private async readFilter(tenantId: string, userId: string): Promise<LiveFilter | undefined> {
    const access = await this.deps.access.of(userId, tenantId);
    if (!access?.tenantActive || !access.userActive) return undefined;
    const streams = new Set<LiveStream>();
    for (const [stream, url] of STREAM_GRANTS) {
      for (const role of access.roles) {
        if (role === ROLE_ADMIN || (await this.deps.grants.allows(tenantId, role, url))) {
          streams.add(stream);
          break;
        }
      }
    }
    // The devices the user's scope lets through, read under the same policies as HTTP.
    const deviceNos = !confinesDevices(access)
      ? null
      : new Set(
          (
            await this.deps.db.tenant(access, (sql) =>
              sql.query<{ device_no: string }>('SELECT device_no FROM iot_device'),
            )
          ).rows.map((row) => row.device_no),
        );
    return { streams, deviceNos };
  }

  /** Hears every change that may concern connected browsers. */
  watch(watcher: (change: BrowserAccessChange) => void): () => void {
    const fromSessions = this.deps.sessions.watch((sessionId) =>
      watcher(sessionId === EVERYTHING ? { kind: 'everything' } : { kind: 'session', sessionId }),
    );
    const fromAccess = this.deps.access.watch((payload) => watcher(parseAccessChange(payload)));
    return () => {
      fromSessions();
      fromAccess();
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What each signed-in browser may receive over MQTT (app.ts creates it). */
    browserAccess: BrowserAccess;
  }
}
