import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** A card's reading as "label value": the label in grey, the value (with its unit) in text. */
export function LabelledValue({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Typography.Text>
      <Typography.Text type="secondary">{label} </Typography.Text>
      {children}
    </Typography.Text>
  );
}
