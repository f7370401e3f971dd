import { iotCommandEntity } from '@shuili/contract';
import type { ReactNode } from 'react';
import { CommandText } from '../device/CommandText';
import { ResourcePage, type CellRenderer } from '../../../resource/ResourcePage';
import type { FixedFilters } from '../../../resource/search-params';

// The command and its parameters in words from the device's thing model, not key and JSON.
const CELLS: Readonly<Record<string, CellRenderer>> = {
  name: (value, row) => (
    <CommandText deviceId={String(row.deviceId ?? '')} name={String(value ?? '')} part="name" />
  ),
  params: (value, row) => (
    <CommandText
      deviceId={String(row.deviceId ?? '')}
      name={String(row.name ?? '')}
      params={value}
      part="params"
    />
  ),
};

export interface IotCommandPageProps {
  title?: ReactNode;
  /** Filters the screen fixes: an area's records are its device kinds' (deviceKind=a,b). */
  fixedFilters?: FixedFilters;
}

/** Operation records: every command sent to a device. */
export function IotCommandPage({ title, fixedFilters }: IotCommandPageProps = {}) {
  return (
    <ResourcePage
      entity={iotCommandEntity}
      title={title}
      fixedFilters={fixedFilters}
      cellRenderers={CELLS}
    />
  );
}
