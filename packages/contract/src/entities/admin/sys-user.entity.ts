import { defineEntity, f, label } from '../../entity-kit';
import { LIMITS } from '../../validation';
import { ORG_TARGET, ROLE_TARGETS, USER_PROJECTS, USER_ZONES } from './targets';

/** Users of a tenant (spec §3 User, §5 user form rules). */
export const sysUserEntity = defineEntity({
  name: 'SysUser',
  title: label('Users', '用户管理', '使用者管理'),
  table: 'sys_user',
  path: '/api/admin/sysuser',
  route: '/admin/sysuser',
  menuCode: 'sysuser',
  scope: 'tenant',
  fields: {
    username: f.text({
      label: label('Username', '用户名', '使用者名稱'),
      required: true,
      min: LIMITS.username.min,
      max: LIMITS.username.max,
      unique: true,
      sortable: true,
    }),
    nickname: f.text({
      label: label('Nickname', '昵称', '暱稱'),
      required: true,
      max: LIMITS.nickname.max,
      sortable: true,
    }),
    password: f.password({
      label: label('Password', '密码', '密碼'),
      required: true,
      column: 'password_hash',
    }),
    email: f.email({ label: label('Email', '邮箱', '電子郵件'), unique: true }),
    mobile: f.mobile({ label: label('Mobile', '手机号', '手機號碼'), unique: true }),
    orgId: f.ref({
      label: label('Organisation', '组织', '組織'),
      required: true,
      target: ORG_TARGET,
    }),
    roleIds: f.refs({
      label: label('Roles', '角色', '角色'),
      required: true,
      target: ROLE_TARGETS,
      // Spec §3 User names one role: roleId is taken as [roleId] and answered as the first.
      singular: 'roleId',
    }),
    status: f.status(),
    geographic: f.text({
      label: label('Region', '所在地区', '所在地區'),
      max: 128,
      list: false,
      search: undefined,
    }),
    address: f.text({
      label: label('Address', '地址', '地址'),
      max: 255,
      list: false,
      search: undefined,
    }),
    profile: f.textarea({ label: label('Profile', '个人简介', '個人簡介'), max: 1000 }),
    zoneIds: f.refs({
      label: label('Zones', '区域', '區域'),
      target: USER_ZONES,
      form: false,
      list: false,
      export: false,
    }),
    projectIds: f.refs({
      label: label('Projects', '项目', '專案'),
      target: USER_PROJECTS,
      form: false,
      list: false,
      export: false,
    }),
    avatar: f.text({
      label: label('Avatar', '头像', '頭像'),
      max: 1024,
      list: false,
      search: undefined,
      export: false,
    }),
  },
});
