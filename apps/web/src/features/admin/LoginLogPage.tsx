import { loginLogEntity } from '@shuili/contract';
import { Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isKnownGrantType } from '../admin-extra/grant-types';
import { agentText } from '../admin-extra/user-agent';
import type { Translate } from '../../resource/field-rules';
import { ResourcePage } from '../../resource/ResourcePage';

// The browser and system read out of the user agent ("Chrome 156 · Linux"), the raw header on
// hover: the whole string would push the other columns off the screen.
const agentCells = {
  userAgent: (value: unknown) =>
    typeof value === 'string' && value ? (
      <Tooltip title={value}>
        <span data-testid="login-client">
          {agentText(value) || (value.length > 40 ? `${value.slice(0, 40)}…` : value)}
        </span>
      </Tooltip>
    ) : null,
};

// The way of signing in in words ("Password", 密码), as the online users screen says it.
const grantTypeCell = (t: Translate) => (value: unknown) =>
  typeof value === 'string' && isKnownGrantType(value)
    ? t(`adminExtra.online.grantTypes.${value}`)
    : String(value ?? '');

/** The login log: every sign-in attempt that named a tenant (read-only, exportable). */
export function LoginLogPage() {
  const { t } = useTranslation();
  const cellRenderers = useMemo(
    () => ({ ...agentCells, grantType: grantTypeCell(t as Translate) }),
    [t],
  );
  return <ResourcePage entity={loginLogEntity} cellRenderers={cellRenderers} />;
}
