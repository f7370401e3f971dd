// The web benchmark's peer: the least a React 19 + Ant Design sign-in page can be. It has a
// layout, a card and a form with two inputs and a button, and nothing else: no router, no i18n,
// no data fetching. Shuili's /login is measured against it.
import { Button, Card, Form, Input, Layout, Typography } from 'antd';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

interface Credentials {
  username: string;
  password: string;
}

function LoginPage() {
  const [form] = Form.useForm<Credentials>();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Content style={{ display: 'grid', placeItems: 'center', padding: 24 }}>
        <Card style={{ width: 360, maxWidth: '100%' }}>
          <Typography.Title level={3}>Sign in</Typography.Title>
          <Form form={form} layout="vertical" name="login" onFinish={() => form.resetFields()}>
            <Form.Item name="username" label="Account" rules={[{ required: true }]}>
              <Input autoComplete="username" />
            </Form.Item>
            <Form.Item name="password" label="Password" rules={[{ required: true }]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block>
              Sign in
            </Button>
          </Form>
        </Card>
      </Layout.Content>
    </Layout>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LoginPage />
  </StrictMode>,
);
