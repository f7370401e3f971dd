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
  /**
   * Port of the service desk's card-reading service on the cashier's machine
   * (ws://127.0.0.1:<port>; 0: none): the console's card reader connects there, and the
   * Content-Security-Policy allows exactly that.
   */
  cardReaderPort: z.number().int(),
});
export type ConsoleSettings = z.infer<typeof consoleSettingsSchema>;
