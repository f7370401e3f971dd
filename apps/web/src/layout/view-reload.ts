import { createContext, useContext } from 'react';

/** Remounts the screen on show: the root view's reload of spec §2. */
export const ViewReloadContext = createContext<() => void>(() => undefined);

/** Unmounts and remounts the current screen, dropping its state. */
export function useReloadView(): () => void {
  return useContext(ViewReloadContext);
}
