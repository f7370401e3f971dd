import { notificationEntity } from '@shuili/contract';
import { ResourcePage } from '../../resource/ResourcePage';

/** Spec §2 /admin/notification: notifications published to the bell. */
export function NotificationPage() {
  return <ResourcePage entity={notificationEntity} />;
}
