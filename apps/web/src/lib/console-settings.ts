import { CONSOLE_SETTINGS_CALL, type ConsoleSettings } from '@shuili/contract';
import { useQuery } from '@tanstack/react-query';
import { http } from './http';

/**
 * The installation's settings the console follows (the map's tile server), asked once per page
 * load: they change only when the server is restarted with other settings.
 */
export function useConsoleSettings() {
  return useQuery({
    queryKey: ['console-settings'],
    queryFn: ({ signal }) =>
      http.get<ConsoleSettings>(CONSOLE_SETTINGS_CALL, { signal, silent: true }),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
