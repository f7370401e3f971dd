import { Flex, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface PanelFrameProps {
  title: string;
  /** Controls beside the title (a range switch). */
  extra?: ReactNode;
  testId: string;
  children: ReactNode;
}

/** A panel's heading and body: every area panel looks alike beside the selected device. */
export function PanelFrame({ title, extra, testId, children }: PanelFrameProps) {
  return (
    <section data-testid={testId} style={{ marginBottom: 16 }}>
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      {children}
    </section>
  );
}
