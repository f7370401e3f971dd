import {
  ALARM_KIND_FIELDS,
  ALARM_THRESHOLD_FIELDS,
  alarmRuleEntity,
  type AlarmKind,
} from '@shuili/contract';
import { ResourcePage, type CellRenderer } from '../../../resource/ResourcePage';
import { PropertyName } from '../alarm-rule/PropertyName';
import { PropertySelect } from '../alarm-rule/PropertySelect';

const CONTROLS = { propertyKey: <PropertySelect /> };
// The list names the watched property, not its key.
const CELLS: Readonly<Record<string, CellRenderer>> = {
  propertyKey: (value, row) => <PropertyName propertyKey={value} row={row} />,
};

/** Threshold fields the chosen condition does not use (none is shown before one is chosen). */
function unusedThresholds(values: Record<string, unknown>): string[] {
  const kind = values.kind as AlarmKind | undefined;
  const used = new Set(kind ? ALARM_KIND_FIELDS[kind] : []);
  // Hysteresis keeps a threshold alarm from flapping; silence has none.
  if (kind && kind !== 'noData') used.add('hysteresis');
  return ALARM_THRESHOLD_FIELDS.filter((name) => !used.has(name));
}

/** Monitor configuration: alarm rules of products and devices. */
export function AlarmRulePage() {
  return (
    <ResourcePage
      entity={alarmRuleEntity}
      fieldControls={CONTROLS}
      cellRenderers={CELLS}
      hiddenFields={unusedThresholds}
    />
  );
}
