import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addErrorLog, ERROR_LOG_ENABLED, toErrorLogEntry } from '../core/error-log';

function ViewCrashed({ onReload }: { onReload: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('errors.crashed')}
      subTitle={t('errors.crashedHint')}
      extra={
        <Button type="primary" onClick={onReload} data-testid="view-reload">
          {t('errors.reload')}
        </Button>
      }
    />
  );
}

export interface ViewErrorBoundaryProps {
  children: ReactNode;
  /** Remounts the screen (the boundary is keyed with it, so it starts clean). */
  onReload: () => void;
}

/**
 * Keeps a screen that throws (or whose code cannot load) from taking the shell and the other
 * tabs with it; in production the error goes to the error log (spec §8).
 */
export class ViewErrorBoundary extends Component<ViewErrorBoundaryProps, { error?: unknown }> {
  override state: { error?: unknown } = {};

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (ERROR_LOG_ENABLED) {
      addErrorLog(toErrorLogEntry(error, info.componentStack ?? '', window.location.href));
    }
  }

  override render() {
    if (this.state.error !== undefined) return <ViewCrashed onReload={this.props.onReload} />;
    return this.props.children;
  }
}
