import { useEffect, type RefObject } from 'react';

/** Clicks that leave the editor in place: links, menu entries, the open-page tabs. */
const LEAVING = 'a[href], .ant-menu-item, .ant-menu-submenu-title, .ant-tabs-tab';

/**
 * Warns before unsaved changes are lost: closing or reloading the tab (the browser's own
 * prompt), and clicking anything outside the editor that opens another page. The console's
 * router is not a data router, so navigation cannot be blocked there; the click is caught
 * before it reaches the link instead.
 */
export function useLeaveGuard(
  dirty: boolean,
  root: RefObject<HTMLElement | null>,
  question: string,
): void {
  useEffect(() => {
    if (!dirty) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    const click = (event: MouseEvent) => {
      const target = event.target as HTMLElement | null;
      const leaving = target?.closest(LEAVING);
      if (!leaving || root.current?.contains(leaving)) return;
      if (window.confirm(question)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [dirty, root, question]);
}
