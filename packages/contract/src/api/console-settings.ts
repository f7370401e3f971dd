import { z } from 'zod';

/** Where the console reads the installation's settings it needs (public: sign-in needs none yet). */
export const CONSOLE_SETTINGS_CALL = '/api/system/queryConsoleSettings';

/** The installation's settings the console follows. */
export const consoleSettingsSchema = z.object({
  /**
   * The device map's tile server, a Leaflet URL template ({s}, {z}, {x}, {y}); the server's
   * Content-Security-Policy allows images from exactly this server.
   */
  mapTileUrl: z.string(),
});
export type ConsoleSettings = z.infer<typeof consoleSettingsSchema>;
