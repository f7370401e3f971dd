import { cardEntity, CARD_STATES } from '@shuili/contract';
import { Tag } from 'antd';
import { ResourcePage, type CellRenderer } from '../../resource/ResourcePage';
import { useLabel } from '../../resource/field-label';
import type { AreaScreenProps } from '../monitor/screens/area-screen-props';

/** A state's colour: working cards green or blue, lost red, replaced and cancelled grey. */
const STATE_COLORS: Record<string, string> = {
  registered: 'blue',
  bound: 'green',
  lost: 'red',
  replaced: 'default',
  cancelled: 'default',
};

function CardState({ value }: { value: unknown }) {
  const label = useLabel();
  const state = CARD_STATES.find((option) => option.value === value);
  if (!state) return null;
  return (
    <Tag color={STATE_COLORS[state.value]} data-testid="card-state" data-state={state.value}>
      {label(state.label)}
    </Tag>
  );
}

const CELLS: Readonly<Record<string, CellRenderer>> = {
  cardState: (value) => <CardState value={value} />,
};

/**
 * Spec /skgg/registrationList: issuing IC cards at the service desk (UID, type, and the household
 * of a user card). A card's state follows its lifecycle (bound, lost, replaced, cancelled), which
 * the binding page changes; here it is shown, never edited.
 */
export function CardRegistrationPage(_props: AreaScreenProps) {
  return <ResourcePage entity={cardEntity} cellRenderers={CELLS} />;
}
