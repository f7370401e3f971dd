import { sysDictEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /admin/sysdict: dictionaries, typed value lists as a tree. */
export function SysDictPage() {
  return <ResourcePage entity={sysDictEntity} />;
}
