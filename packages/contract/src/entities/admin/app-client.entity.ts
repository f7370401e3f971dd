import { defineEntity, f, label } from '../../entity-kit';

export const CLIENT_GRANT_TYPES = [
  'authorization_code',
  'client_credentials',
  'refresh_token',
  'password',
  'mobile',
] as const;

/**
 * OAuth app clients (platform data): the secret is stored as a hash only. Given (spec §3
 * clientSecret) it is kept as given; left out on add, one is generated and shown once.
 */
export const appClientEntity = defineEntity({
  name: 'AppClient',
  title: label('App clients', '应用客户端', '應用用戶端'),
  table: 'oauth_client',
  path: '/api/uaa/appclient',
  route: '/admin/appclient',
  menuCode: 'appclient',
  scope: 'platform',
  key: 'clientId',
  defaultSort: { field: 'clientId', order: 'ascend' },
  fields: {
    clientId: f.text({
      label: label('Client id', '客户端ID', '用戶端ID'),
      required: true,
      min: 3,
      max: 64,
      unique: true,
      sortable: true,
      pattern: { source: '^[a-z][a-z0-9_-]*$', key: 'validation.clientId' },
    }),
    clientSecret: f.secret({
      label: label('Client secret', '客户端密钥', '用戶端密鑰'),
      min: 16,
      max: 128,
    }),
    authorizedGrantTypes: f.tags({
      label: label('Grant types', '授权方式', '授權方式'),
      required: true,
      options: CLIENT_GRANT_TYPES.map((value) => ({ value, label: label(value, value, value) })),
    }),
    scope: f.tags({ label: label('Scope', '范围', '範圍'), required: true }),
    accessTokenValidity: f.int({
      label: label('Access token seconds', '访问令牌有效期(秒)', '存取權杖有效期(秒)'),
      required: true,
      min: 60,
      max: 86_400,
      defaultValue: 900,
    }),
    refreshTokenValidity: f.int({
      label: label('Refresh token seconds', '刷新令牌有效期(秒)', '更新權杖有效期(秒)'),
      required: true,
      min: 60,
      max: 2_592_000,
      defaultValue: 604_800,
    }),
    webServerRedirectUri: f.text({
      label: label('Redirect URI', '回调地址', '回呼位址'),
      max: 1024,
      pattern: { source: '^https?://\\S+$', key: 'validation.url' },
    }),
    resourceIds: f.text({
      label: label('Resource ids', '资源ID', '資源ID'),
      max: 255,
      list: false,
    }),
    authorities: f.text({ label: label('Authorities', '权限', '權限'), max: 255, list: false }),
    additionalInformation: f.textarea({
      label: label('Additional information', '附加信息', '附加資訊'),
      max: 4000,
    }),
    autoapprove: f.bool({
      label: label('Auto approve', '自动授权', '自動授權'),
      defaultValue: false,
    }),
  },
});
