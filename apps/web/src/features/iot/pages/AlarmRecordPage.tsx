import { alarmRecordEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Warning information: alarms raised, cleared and acknowledged. */
export function AlarmRecordPage() {
  return <ResourcePage entity={alarmRecordEntity} />;
}
