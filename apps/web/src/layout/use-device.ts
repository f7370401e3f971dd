import { MOBILE_BREAKPOINT_PX } from '@shuili/contract';
import { useEffect } from 'react';
import { closeSidebar, isMobileWidth, toggleDevice, useAppStore } from './app-state';

/**
 * Spec §2 mobile mode: when the body is narrower than the breakpoint the device becomes mobile
 * and the sidebar closes (it then opens as an overlay); a navigation closes it again. Wider
 * again, the sidebar is back as it was on desktop.
 */
export function useDevice(pathname: string): void {
  useEffect(() => {
    const check = () => {
      const mobile = isMobileWidth(
        document.body.getBoundingClientRect().width,
        MOBILE_BREAKPOINT_PX,
      );
      const device = mobile ? 'mobile' : 'desktop';
      if (useAppStore.getState().device !== device) toggleDevice(device);
    };
    const onResize = () => {
      if (!document.hidden) check();
    };
    check();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    const { device, sidebar } = useAppStore.getState();
    if (device === 'mobile' && sidebar.opened) closeSidebar(false);
  }, [pathname]);
}
