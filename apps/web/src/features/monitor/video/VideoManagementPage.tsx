import { cameraEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';
import { LocationInput } from './LocationInput';

/**
 * Camera management (spec §2 /videoManagement): the camera entity's list, search, add and edit
 * dialogs (zone, camera device, stream type and URL, snapshot URL, position picked on the map),
 * enable/disable, delete and exports, as every entity screen.
 */
export function VideoManagementPage() {
  return (
    <ResourcePage entity={cameraEntity} fieldControls={{ lng: <LocationInput latField="lat" /> }} />
  );
}
