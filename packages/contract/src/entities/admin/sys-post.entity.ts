import { defineEntity, f, label } from '../../entity-kit';
import { POST_TARGET, USER_TARGET } from './targets';

/** Posts (job positions) as a tree (spec §3 Post). */
export const sysPostEntity = defineEntity({
  name: 'SysPost',
  title: label('Posts', '岗位管理', '崗位管理'),
  table: 'sys_post',
  path: '/api/admin/syspost',
  route: '/admin/syspost',
  menuCode: 'syspost',
  scope: 'tenant',
  tree: { parent: 'postParent', title: 'postName', sequence: 'postSequence' },
  fields: {
    postCode: f.text({
      label: label('Post code', '岗位编码', '崗位編碼'),
      required: true,
      max: 64,
      unique: true,
    }),
    postName: f.text({
      label: label('Post name', '岗位名称', '崗位名稱'),
      required: true,
      max: 64,
    }),
    postSequence: f.int({
      label: label('Sequence', '排序', '排序'),
      required: true,
      defaultValue: 0,
      max: 100_000,
    }),
    postParent: f.ref({
      label: label('Parent post', '上级岗位', '上級崗位'),
      target: POST_TARGET,
      list: false,
    }),
    status: f.status(),
  },
});

/** Which users hold which posts; the navbar switches among a user's posts (spec §4). */
export const sysUserPostEntity = defineEntity({
  name: 'SysUserPost',
  title: label('User posts', '用户岗位', '使用者崗位'),
  table: 'sys_user_post',
  path: '/api/admin/sysuserpost',
  route: '/admin/syspost',
  menuCode: 'syspost',
  scope: 'tenant',
  uniqueTogether: [['userId', 'postId']],
  fields: {
    userId: f.ref({ label: label('User', '用户', '使用者'), required: true, target: USER_TARGET }),
    postId: f.ref({ label: label('Post', '岗位', '崗位'), required: true, target: POST_TARGET }),
  },
});
