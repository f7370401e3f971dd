import { operationLogEntity } from '@shuili/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocaleStore } from '../../i18n/i18n';
import { ResourcePage } from '../../resource/ResourcePage';
import { operationActionText } from './operation-action';

/** The operation log: every change made through the API (read-only, exportable). */
export function OperationLogPage() {
  const { t } = useTranslation();
  const lang = useLocaleStore((state) => state.lang);
  const cellRenderers = useMemo(
    () => ({
      // The server keeps a language-neutral key; the reader sees it in their language.
      action: (value: unknown) => (
        <span data-testid="operation-action" title={String(value ?? '')}>
          {typeof value === 'string' ? operationActionText(value, t, lang) : null}
        </span>
      ),
    }),
    [t, lang],
  );
  return <ResourcePage entity={operationLogEntity} cellRenderers={cellRenderers} />;
}
