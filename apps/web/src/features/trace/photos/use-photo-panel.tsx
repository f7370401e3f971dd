import { entityButtons, type EntityDef } from '@shuili/contract';
import { useState } from 'react';
import { usePermission } from '../../../core/permission';
import type { ResourceRow } from '../../../resource/resource-row';
import { TracePhotosButton, TracePhotosPanel, type PhotoOwner } from './TracePhotos';

/**
 * A list screen's photos: the row action that opens a row's photos and the panel itself. Adding
 * and deleting photos is editing the row (its entity's edit button).
 */
export function usePhotoPanel(
  entity: EntityDef,
  owner: PhotoOwner,
  nameOf: (row: ResourceRow) => string,
) {
  const [shown, setShown] = useState<ResourceRow>();
  const editable = usePermission(entityButtons(entity).edit);
  return {
    rowActions: (row: ResourceRow) => (
      <TracePhotosButton name={nameOf(row)} onOpen={() => setShown(row)} />
    ),
    panel: (
      <TracePhotosPanel
        owner={owner}
        id={shown ? String(shown.id) : undefined}
        name={shown ? nameOf(shown) : ''}
        editable={editable}
        onClose={() => setShown(undefined)}
      />
    ),
  };
}
