import { lazy } from 'react';
import type { LoginSecondFactorProps } from './LoginSecondFactor';

// A second hop on purpose: the sign-in page names only this small module, so the list of files
// the step needs (QR code, typography, alert...) is not part of what every /login downloads.
const LoginSecondFactor = lazy(() =>
  import('./LoginSecondFactor').then((module) => ({ default: module.LoginSecondFactor })),
);

/** The second step of signing in (code, or authenticator set-up), loaded on demand. */
export function SecondFactorStep(props: LoginSecondFactorProps) {
  return <LoginSecondFactor {...props} />;
}
