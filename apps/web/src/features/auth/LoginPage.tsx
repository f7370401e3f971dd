import { LockOutlined, UserOutlined } from '@ant-design/icons';
import {
  LIMITS,
  PASSWORD_INPUT_MAX,
  TOAST_MS,
  type TenantOption,
  type TokenResponse,
} from '@shuili/contract';
import { Button, Form } from 'antd';
// The two inputs sign-in shows, not antd's Input namespace (search, text area, OTP and group).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../../core/open-paths';
import { preloadScreens } from '../../core/route-tables';
import { beginSession, endSigningOut, ensureSession, resetToken } from '../../core/session';
import { getLastTenant, setLastTenant, type RememberedTenant } from '../../lib/auth-storage';
import { feedback } from '../../lib/feedback';
import { DeferredSegmented } from '../../lib/deferred/DeferredSegmented';
import { DeferredSelect } from '../../lib/deferred/DeferredSelect';
import {
  OAuthRequestError,
  requestToken,
  type MobileGrant,
  type PasswordGrant,
} from '../../lib/oauth';
import { authApi } from './auth-api';
import { AuthCard } from './AuthCard';
import styles from './LoginPage.module.css';
import { useAuthRules } from './use-auth-rules';
import { useTenantLookup } from './use-tenant-lookup';

type LoginMode = 'account' | 'mobile';

interface LoginValues {
  tenantCode?: string;
  username?: string;
  password?: string;
  captcha?: string;
  mobile?: string;
  smsCaptcha?: string;
}

// Why a sign-in was refused: fetched with the first submit, alongside the token request.
const loadErrors = () => import('./login-errors');

// The SMS tab downloads when it is chosen, or as soon as the pointer or focus reaches the tabs.
const loadMobileFields = () => import('./LoginMobileFields');
const LoginMobileFields = lazy(() =>
  loadMobileFields().then((module) => ({ default: module.LoginMobileFields })),
);
const preloadMobileFields = () => void loadMobileFields().catch(() => undefined);

// The code an account asks for after failed sign-ins from many addresses: rarely needed.
const LoginCodeField = lazy(() =>
  import('./LoginCodeField').then((module) => ({ default: module.LoginCodeField })),
);

// The second-factor step (code, or authenticator set-up with its QR code) downloads only for
// the accounts that have or need one.
const LoginSecondFactor = lazy(() =>
  import('./second-factor/second-factor-step').then((module) => ({
    default: module.SecondFactorStep,
  })),
);

/** A sign-in waiting for its second factor: the grant to send again with the code. */
interface SecondFactorStep {
  grant: PasswordGrant | MobileGrant;
  kind: 'mfa_required' | 'mfa_enrollment_required';
  ticket: string | undefined;
}

// The seeded demo tenant (README); shown so a first visitor can look around.
const DEMO = { tenant: 'demo', username: 'admin', password: 'admin123' };

function tenantLabel(tenant: TenantOption): string {
  return tenant.tenantName && tenant.tenantName !== tenant.tenantCode
    ? `${tenant.tenantName} (${tenant.tenantCode})`
    : tenant.tenantCode;
}

/** Spec §2 sign-in: the account, then the tenant of that account, then a password or an SMS code. */
export function LoginPage() {
  const { t } = useTranslation();
  const rules = useAuthRules();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [form] = Form.useForm<LoginValues>();
  const [mode, setMode] = useState<LoginMode>('account');
  const [submitting, setSubmitting] = useState(false);
  const [secondFactor, setSecondFactor] = useState<SecondFactorStep>();
  // The server asked for the code sent to the account (captcha_required).
  const [codeRequired, setCodeRequired] = useState(false);

  // A tenant handed over by the register page wins over the one remembered from last time.
  // The remembered name is in the language of that sign-in: the code stands in for it until the
  // account's look-up brings the tenants' names in the reader's language.
  const [initialTenant] = useState<RememberedTenant | undefined>(() => {
    const code = searchParams.get('tenant')?.trim() || getLastTenant()?.tenantCode;
    return code ? { tenantCode: code, tenantName: code } : undefined;
  });
  const [initialUsername] = useState(() => searchParams.get('username') ?? '');
  const lookup = useTenantLookup(initialUsername);
  const { tenants } = lookup;

  const options = useMemo(() => {
    const list = [...(tenants ?? [])];
    if (initialTenant && !list.some((item) => item.tenantCode === initialTenant.tenantCode)) {
      list.push(initialTenant);
    }
    return list;
  }, [tenants, initialTenant]);

  useEffect(() => endSigningOut(), []);

  useEffect(() => {
    if (!tenants) return;
    const current = form.getFieldValue('tenantCode') as string | undefined;
    const codes = tenants.map((item) => item.tenantCode);
    if (current && codes.includes(current)) return;
    if (tenants.length === 1) form.setFieldValue('tenantCode', codes[0]);
    else if (initialTenant && codes.includes(initialTenant.tenantCode)) {
      form.setFieldValue('tenantCode', initialTenant.tenantCode);
    } else if (tenants.length > 1) form.setFieldValue('tenantCode', undefined);
  }, [tenants, initialTenant, form]);

  /** Signed in: remember the tenant, load the session, open the console. */
  const enter = async (token: TokenResponse, tenantCode: string) => {
    const tenant = options.find((item) => item.tenantCode === tenantCode);
    const tenantName = tenant?.tenantName ?? tenantCode;
    beginSession(token.access_token, tenantName);
    setLastTenant({ tenantCode, tenantName });
    void authApi.registerNewSession().catch(() => undefined);
    setSubmitting(true);
    try {
      // Load the session here, so the console opens complete instead of blank while it loads;
      // the console's code downloads meanwhile.
      const target = safeRedirect(searchParams.get('redirect')) ?? '/';
      preloadScreens(new URL(target, window.location.origin).pathname);
      await ensureSession();
      void navigate(target, { replace: true });
    } catch (error) {
      resetToken();
      const text = error instanceof Error && error.message ? error.message : t('session.hasError');
      feedback.error(text, TOAST_MS.error / 1000);
    } finally {
      setSubmitting(false);
    }
  };

  const onFinish = async (values: LoginValues) => {
    const tenantCode = (values.tenantCode ?? '').trim();
    // Spec §5: trim everything but the password.
    const grant: PasswordGrant | MobileGrant =
      mode === 'account'
        ? {
            grant_type: 'password',
            tenantCode,
            username: (values.username ?? '').trim(),
            password: values.password ?? '',
            ...(codeRequired ? { captcha: (values.captcha ?? '').trim() } : {}),
          }
        : {
            grant_type: 'mobile',
            tenantCode,
            mobile: (values.mobile ?? '').trim(),
            smsCaptcha: (values.smsCaptcha ?? '').trim(),
          };
    setSubmitting(true);
    const errors = loadErrors();
    let token: TokenResponse;
    try {
      token = await requestToken(grant);
    } catch (error) {
      setSubmitting(false);
      if (error instanceof OAuthRequestError && error.error?.startsWith('mfa_')) {
        // The first factor was right: ask for the second (or set one up, with the ticket).
        setSecondFactor({
          grant,
          kind: error.error as SecondFactorStep['kind'],
          ticket: error.mfaTicket,
        });
        return;
      }
      if (error instanceof OAuthRequestError && error.error === 'captcha_required') {
        setCodeRequired(true);
      }
      void errors.then(
        (module) => module.reportSignInError(form, t, error),
        () => feedback.error(t('http.networkError'), TOAST_MS.error / 1000),
      );
      return;
    }
    await enter(token, tenantCode);
  };

  const sendSms = async () => {
    const values = await form.validateFields(['tenantCode', 'mobile']);
    const sent = await authApi.getSmsCaptcha(
      (values.mobile ?? '').trim(),
      (values.tenantCode ?? '').trim(),
    );
    feedback.success(t('captcha.sent'), TOAST_MS.success / 1000);
    return sent.resendIn;
  };

  const onAccountChange = (value: string) => lookup.schedule(value);

  // After the account, as people fill the form: the tenants that account belongs to. Typing
  // filters them by name or code; Enter takes only an option the filter left highlighted.
  const tenantField = (
    <Form.Item name="tenantCode" rules={rules.tenant}>
      <DeferredSelect<string>
        aria-label={t('field.tenant')}
        placeholder={t('login.tenantPlaceholder')}
        showSearch={{ optionFilterProp: 'label' }}
        loading={lookup.loading}
        notFoundContent={tenants ? t('login.noTenant') : null}
        options={options.map((item) => ({
          value: item.tenantCode,
          label: tenantLabel(item),
        }))}
      />
    </Form.Item>
  );

  return (
    <AuthCard
      subtitle={t('login.subtitle')}
      footer={<span data-testid="demo-hint">{t('login.demoHint', DEMO)}</span>}
    >
      {secondFactor ? (
        <Suspense fallback={null}>
          <LoginSecondFactor
            {...secondFactor}
            onSignedIn={(token) => void enter(token, secondFactor.grant.tenantCode)}
            onBack={() => setSecondFactor(undefined)}
          />
        </Suspense>
      ) : (
        <Form<LoginValues>
          form={form}
          name="login"
          size="large"
          requiredMark={false}
          initialValues={{ tenantCode: initialTenant?.tenantCode, username: initialUsername }}
          onFinish={(values) => void onFinish(values)}
        >
          {/* The two sign-in tabs; a segmented switch is a fraction of the Tabs component's code. */}
          <div onPointerEnter={preloadMobileFields} onFocus={preloadMobileFields}>
            <DeferredSegmented<LoginMode>
              block
              className={styles.modes}
              value={mode}
              onChange={setMode}
              options={[
                { value: 'account', label: t('login.tabAccount') },
                { value: 'mobile', label: t('login.tabMobile') },
              ]}
            />
          </div>
          {mode === 'account' ? (
            <>
              <Form.Item name="username" rules={rules.userInfo}>
                <Input
                  prefix={<UserOutlined />}
                  aria-label={t('field.userInfo')}
                  placeholder={t('login.userInfoPlaceholder')}
                  autoComplete="username"
                  maxLength={LIMITS.userInfo.max}
                  onChange={(event) => onAccountChange(event.target.value)}
                  onBlur={(event) => lookup.flush(event.target.value)}
                />
              </Form.Item>
              {tenantField}
              <Form.Item name="password" rules={rules.password}>
                <Password
                  prefix={<LockOutlined />}
                  aria-label={t('field.password')}
                  placeholder={t('login.passwordPlaceholder')}
                  autoComplete="current-password"
                  maxLength={PASSWORD_INPUT_MAX}
                />
              </Form.Item>
              {codeRequired && (
                <Suspense fallback={null}>
                  <LoginCodeField rules={rules} form={form} />
                </Suspense>
              )}
            </>
          ) : (
            <Suspense fallback={null}>
              <LoginMobileFields
                rules={rules}
                onAccountChange={onAccountChange}
                onAccountBlur={(value) => lookup.flush(value)}
                tenantField={tenantField}
                onSendSms={sendSms}
              />
            </Suspense>
          )}
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={submitting}>
              {t('login.submit')}
            </Button>
          </Form.Item>
          <div className={styles.links}>
            <Link to="/forgotpassword">{t('login.forgotPassword')}</Link>
            <Link to="/register">{t('login.register')}</Link>
          </div>
        </Form>
      )}
    </AuthCard>
  );
}
