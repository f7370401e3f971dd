import { loginLogEntity } from '@shuili/contract';
import { Tooltip } from 'antd';
import { agentText } from '../admin-extra/user-agent';
import { ResourcePage } from '../../resource/ResourcePage';

// The browser and system read out of the user agent ("Chrome 156 · Linux"), the raw header on
// hover: the whole string would push the other columns off the screen.
const cellRenderers = {
  userAgent: (value: unknown) =>
    typeof value === 'string' && value ? (
      <Tooltip title={value}>
        <span data-testid="login-client">
          {agentText(value) || (value.length > 40 ? `${value.slice(0, 40)}…` : value)}
        </span>
      </Tooltip>
    ) : null,
};

/** The login log: every sign-in attempt that named a tenant (read-only, exportable). */
export function LoginLogPage() {
  return <ResourcePage entity={loginLogEntity} cellRenderers={cellRenderers} />;
}
