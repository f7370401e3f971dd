import { Alert } from 'antd';
import type { ReactNode } from 'react';

/**
 * A screen's purpose in one or two sentences above its list: what its rows are and how they
 * relate to the screens beside it (templates, instances and the thing model).
 */
export function ScreenIntro({ children }: { children: ReactNode }) {
  return (
    <Alert
      type="info"
      showIcon
      title={children}
      style={{ marginBottom: 12 }}
      data-testid="screen-intro"
    />
  );
}
