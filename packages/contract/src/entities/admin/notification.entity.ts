import { defineEntity, f, label } from '../../entity-kit';
import { ORG_TARGET, ROLE_TARGETS, USER_TARGET } from './targets';

/** Notifications published to everyone, roles, organisations or users; they feed the bell. */
export const notificationEntity = defineEntity({
  name: 'Notification',
  title: label('Notifications', '通知管理', '通知管理'),
  table: 'notification',
  path: '/api/notification/notification',
  route: '/admin/notification',
  menuCode: 'notification',
  scope: 'tenant',
  operations: { status: false },
  fields: {
    title: f.text({
      label: label('Title', '标题', '標題'),
      required: true,
      max: 200,
      sortable: true,
    }),
    content: f.richtext({ label: label('Content', '内容', '內容'), required: true, max: 100_000 }),
    type: f.dict({
      label: label('Type', '类型', '類型'),
      required: true,
      dictType: 'notification_type',
    }),
    priority: f.dict({
      label: label('Priority', '优先级', '優先級'),
      required: true,
      dictType: 'notification_priority',
    }),
    publishScope: f.enumOf({
      label: label('Publish to', '发布对象', '發佈對象'),
      required: true,
      defaultValue: 'all',
      options: [
        { value: 'all', label: label('Everyone', '全部', '全部') },
        { value: 'roles', label: label('Roles', '角色', '角色') },
        { value: 'orgs', label: label('Organisations', '组织', '組織') },
        { value: 'users', label: label('Users', '用户', '使用者') },
      ],
    }),
    publishTargets: f.idList({
      targetsBy: {
        field: 'publishScope',
        targets: { roles: ROLE_TARGETS, orgs: ORG_TARGET, users: USER_TARGET },
      },
      label: label('Recipients', '接收对象', '接收對象'),
      list: false,
      export: false,
    }),
    startTime: f.datetime({ label: label('From', '开始时间', '開始時間') }),
    endTime: f.datetime({ label: label('Until', '结束时间', '結束時間') }),
    publisherId: f.ref({
      label: label('Publisher', '发布人', '發佈人'),
      readOnly: true,
      search: undefined,
      target: USER_TARGET,
      onDelete: 'set-null',
    }),
  },
});
