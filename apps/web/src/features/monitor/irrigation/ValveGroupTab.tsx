import { valveGroupEntity, type AreaDef } from '@shuili/contract';
import { usePermission } from '../../../core/permission';
import { ResourcePage } from '../../../resource/ResourcePage';
import { BatchControlButtons } from './BatchControlButtons';
import { ValveMembersSelect } from './ValveMembersSelect';

/**
 * Irrigation configuration: valve groups (channels of irrigation valves opened together), each
 * with batch open (for some minutes) and close.
 */
export function ValveGroupTab(_props: { area: AreaDef }) {
  const mayControl = usePermission('valveGroup:edit');
  return (
    <ResourcePage
      entity={valveGroupEntity}
      fieldControls={{ members: <ValveMembersSelect /> }}
      rowActions={(row) =>
        mayControl ? (
          <BatchControlButtons groupId={row.id} groupName={String(row.groupName ?? row.id)} />
        ) : null
      }
    />
  );
}
