import { create } from 'zustand';
import { getCookie, setCookie } from '../lib/cookies';

/** Spec §4: the sidebar state is kept in this cookie, 1 open and 0 closed. */
export const SIDEBAR_COOKIE = 'sidebarStatus';
/** Spec §4: the global component size is kept in this cookie. */
export const SIZE_COOKIE = 'size';
const COOKIE_DAYS = 365;

/** Spec §2 size options. */
export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
export type Device = 'desktop' | 'mobile';

/** Spec §3 app state: sidebar, device and size. */
export interface AppState {
  sidebar: { opened: boolean; withoutAnimation: boolean };
  device: Device;
  size: Size;
}

/** The cookie's sidebar state: '0' closed, anything else (or none) open. */
export function sidebarOpenedFrom(cookie: string | undefined): boolean {
  return cookie === undefined || cookie === '' ? true : Number(cookie) !== 0;
}

/** The cookie's size; missing or unknown sizes fall back to medium (spec §3's state default). */
export function sizeFrom(cookie: string | undefined): Size {
  return (SIZES as readonly string[]).includes(cookie ?? '') ? (cookie as Size) : 'medium';
}

/**
 * How a size maps onto Ant Design, whose components come in large, middle and small:
 * default → large (40 px controls), medium → middle (32 px, antd's own default), small → small
 * (24 px), mini → small with the compact algorithm (smaller still).
 */
export function antdSizeOf(size: Size): {
  componentSize: 'large' | 'middle' | 'small';
  compact: boolean;
} {
  switch (size) {
    case 'default':
      return { componentSize: 'large', compact: false };
    case 'medium':
      return { componentSize: 'middle', compact: false };
    case 'small':
      return { componentSize: 'small', compact: false };
    case 'mini':
      return { componentSize: 'small', compact: true };
  }
}

/** Whether a body this wide (spec §2: its width minus 1) is a mobile one. */
export function isMobileWidth(bodyWidth: number, breakpoint: number): boolean {
  return bodyWidth - 1 < breakpoint;
}

// Unit tests load this module without a document.
const cookie = (name: string) => (typeof document === 'undefined' ? undefined : getCookie(name));

export const useAppStore = create<AppState>(() => ({
  sidebar: { opened: sidebarOpenedFrom(cookie(SIDEBAR_COOKIE)), withoutAnimation: false },
  device: 'desktop',
  size: sizeFrom(cookie(SIZE_COOKIE)),
}));

function setSidebar(opened: boolean, withoutAnimation: boolean): void {
  // The cookie keeps the desktop choice: a phone's overlay opening and closing is not one, so
  // a window narrowed and widened again gets its sidebar back as the user left it.
  if (useAppStore.getState().device === 'desktop') {
    setCookie(SIDEBAR_COOKIE, opened ? '1' : '0', { expires: COOKIE_DAYS });
  }
  useAppStore.setState({ sidebar: { opened, withoutAnimation } });
}

/** The hamburger: flips the sidebar. */
export function toggleSidebar(): void {
  setSidebar(!useAppStore.getState().sidebar.opened, false);
}

/** Closes the sidebar, at once when asked (switching to mobile should not animate). */
export function closeSidebar(withoutAnimation: boolean): void {
  setSidebar(false, withoutAnimation);
}

/**
 * Switches between desktop and mobile. Mobile starts with the sidebar closed; back on desktop it
 * is as the user last chose there (the cookie), at once rather than sliding.
 */
export function toggleDevice(device: Device): void {
  useAppStore.setState({ device });
  if (device === 'mobile') closeSidebar(true);
  else setSidebar(sidebarOpenedFrom(cookie(SIDEBAR_COOKIE)), true);
}

/** Changes the size of every Ant Design component and remembers it. */
export function setSize(size: Size): void {
  setCookie(SIZE_COOKIE, size, { expires: COOKIE_DAYS });
  useAppStore.setState({ size });
}
