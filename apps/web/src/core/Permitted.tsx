import type { ReactNode } from 'react';
import { usePermission } from './permission';

export interface PermittedProps {
  /** The menu button code, e.g. 'sysuser:add'. */
  code: string;
  children: ReactNode;
  /** Shown instead when the user may not press it (nothing by default). */
  fallback?: ReactNode;
}

/** Shows its children only to users who may press the menu button `code` (spec §6). */
export function Permitted({ code, children, fallback = null }: PermittedProps) {
  return usePermission(code) ? children : fallback;
}
