import { alarmRuleEntity } from '@shuili/contract';
import { ResourcePage } from '../../../resource/ResourcePage';

/** Monitor configuration: alarm rules of products and devices. */
export function AlarmRulePage() {
  return <ResourcePage entity={alarmRuleEntity} />;
}
