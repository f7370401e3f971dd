import { loginLogEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** The login log: every sign-in attempt that named a tenant (read-only, exportable). */
export function LoginLogPage() {
  return <ResourcePage entity={loginLogEntity} />;
}
