import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { getToken } from '../lib/auth-storage';

export interface GuestOnlyProps {
  children: ReactNode;
}

/** Spec §2: a signed-in user opening the sign-in page is sent to the console instead. */
export function GuestOnly({ children }: GuestOnlyProps) {
  if (getToken()) return <Navigate to="/" replace />;
  return children;
}
