import { INSECT_CALLS, insectSpeciesEntity } from '@shuili/contract';
import { useState } from 'react';
import { ResourcePage, type CellRenderer } from '../../../resource/ResourcePage';
import type { ResourceRow } from '../../../resource/resource-row';
import type { AreaScreenProps } from '../screens/area-screen-props';
import { AuthImage } from './AuthImage';
import { SpeciesDetail } from './SpeciesDetail';
import { SpeciesPictureUpload } from './SpeciesPictureUpload';

const CELLS: Readonly<Record<string, CellRenderer>> = {
  pictureAt: (value, row) => (
    <AuthImage
      url={INSECT_CALLS.speciesPicture}
      id={value ? String(row.id) : undefined}
      version={value ? String(value) : null}
      alt={String(row['nameZh'] ?? '')}
      width={64}
      height={48}
      testId="species-picture"
    />
  ),
};

/**
 * Spec /insectSituationMonitor/insectImageIntroduction: the catalogue of pest species the traps'
 * photos are counted by, with their pictures; a row opens its identification hints and control
 * advice in the reader's language.
 */
export function InsectSpeciesPage(_props: AreaScreenProps) {
  const [shown, setShown] = useState<ResourceRow | undefined>();
  return (
    <>
      <ResourcePage
        entity={insectSpeciesEntity}
        cellRenderers={CELLS}
        rowActions={(row) => (
          <SpeciesPictureUpload speciesId={String(row.id)} name={String(row['nameZh'] ?? '')} />
        )}
        onRowClick={setShown}
        activeRowId={shown ? String(shown.id) : undefined}
      />
      <SpeciesDetail row={shown} onClose={() => setShown(undefined)} />
    </>
  );
}
