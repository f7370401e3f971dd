import { defineEntity, f, label } from '../../entity-kit';
import { LIMITS, TENANT_CODE_PATTERN } from '../../validation';

/**
 * Tenants (platform tenant only): creating one provisions its roles and menus, and its first
 * administrator when adminUsername and adminPassword are given (spec §3 names neither: a tenant
 * without one gets its administrator later, with addSysTenantUser).
 */
export const sysTenantEntity = defineEntity({
  name: 'SysTenant',
  title: label('Tenants', '租户管理', '租戶管理'),
  table: 'tenant',
  path: '/api/admin/systenant',
  route: '/systenant',
  menuCode: 'systenant',
  scope: 'platform',
  defaultSort: { field: 'tenantCode', order: 'ascend' },
  fields: {
    tenantCode: f.text({
      label: label('Tenant code', '租户编码', '租戶編碼'),
      required: true,
      min: LIMITS.tenantCode.min,
      max: LIMITS.tenantCode.max,
      unique: true,
      sortable: true,
      pattern: { source: TENANT_CODE_PATTERN.source, key: 'validation.tenantCode' },
    }),
    tenantName: f.text({
      label: label('Tenant name', '租户名称', '租戶名稱'),
      required: true,
      max: LIMITS.tenantName.max,
      sortable: true,
    }),
    domain: f.text({ label: label('Domain', '域名', '網域'), max: 255 }),
    startTime: f.datetime({ label: label('Service start', '开始时间', '開始時間') }),
    endTime: f.datetime({ label: label('Service end', '结束时间', '結束時間') }),
    contact: f.text({ label: label('Contact', '联系人', '聯絡人'), max: 64 }),
    email: f.email({ label: label('Email', '邮箱', '電子郵件') }),
    tel: f.text({ label: label('Telephone', '电话', '電話'), max: 32 }),
    status: f.status(),
    // 'required': every user of the tenant signs in with a TOTP code (the platform tenant's
    // administrators always do, whatever this says).
    mfaPolicy: f.enumOf({
      label: label('Two-step verification', '两步验证', '兩步驟驗證'),
      options: [
        { value: 'optional', label: label('Optional', '可选', '選用') },
        { value: 'required', label: label('Required', '必须', '必須') },
      ],
      defaultValue: 'optional',
      required: true,
    }),
    adminUsername: f.text({
      label: label('Administrator username', '管理员用户名', '管理員使用者名稱'),
      min: LIMITS.username.min,
      max: LIMITS.username.max,
      createOnly: true,
      list: false,
      export: false,
      search: undefined,
      virtual: true,
    }),
    adminPassword: f.password({
      label: label('Administrator password', '管理员密码', '管理員密碼'),
      virtual: true,
    }),
  },
});
