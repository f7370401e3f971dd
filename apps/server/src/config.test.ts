import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  const saved = process.env.TRUST_PROXY;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
  });

  it('trusts a hop count or named proxies, never every X-Forwarded-For entry', () => {
    process.env.TRUST_PROXY = '2';
    expect(loadConfig().trustProxy).toBe(2);
    process.env.TRUST_PROXY = '10.0.0.0/8, 127.0.0.1';
    expect(loadConfig().trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    process.env.TRUST_PROXY = 'true';
    expect(() => loadConfig()).toThrow(/hop count/);
    delete process.env.TRUST_PROXY;
    expect(loadConfig().trustProxy).toBe(false);
  });
});

describe('MQTT settings', () => {
  const names = [
    'MQTT_PUBLIC_URLS',
    'MQTT_TLS_PORT',
    'MQTT_CONSUMERS',
    'MQTT_CONSUMER_WINDOW',
    'MQTT_PORT',
  ] as const;
  const saved = names.map((name) => process.env[name]);
  afterEach(() => {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });

  it('reads ports, public URLs and consumers, with defaults', () => {
    for (const name of names) delete process.env[name];
    expect(loadConfig()).toMatchObject({
      mqttPort: 1883,
      mqttTlsPort: 8883,
      mqttPublicUrls: [],
      mqttConsumers: 2,
      mqttConsumerWindow: 4000,
    });
    process.env.MQTT_PUBLIC_URLS = 'mqtts://iot.example.com:8883, wss://iot.example.com/mqtt';
    process.env.MQTT_CONSUMERS = '0';
    process.env.MQTT_CONSUMER_WINDOW = '500';
    expect(loadConfig()).toMatchObject({
      mqttPublicUrls: ['mqtts://iot.example.com:8883', 'wss://iot.example.com/mqtt'],
      mqttConsumers: 1,
      mqttConsumerWindow: 500,
    });
    // The MQTT 5 receive maximum is 1 to 65535.
    for (const bad of ['0', '65536']) {
      process.env.MQTT_CONSUMER_WINDOW = bad;
      expect(() => loadConfig()).toThrow(/MQTT_CONSUMER_WINDOW/);
    }
    delete process.env.MQTT_CONSUMER_WINDOW;
    process.env.MQTT_PORT = 'abc';
    expect(() => loadConfig()).toThrow(/MQTT_PORT/);
  });
});

describe('MQTT identity and auth hook settings', () => {
  const names = ['MQTT_URL', 'MQTT_USERNAME', 'MQTT_PASSWORD', 'MQTT_AUTH_SECRET'] as const;
  const saved = names.map((name) => process.env[name]);
  afterEach(() => {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });

  it('takes the server identity from its settings or MQTT_URL, and a long enough secret', () => {
    for (const name of names) delete process.env[name];
    expect(loadConfig()).toMatchObject({
      mqttUsername: undefined,
      mqttPassword: undefined,
      mqttAuthSecret: undefined,
    });
    process.env.MQTT_URL = 'mqtt://shuili-node:p%40ss@broker:1883';
    expect(loadConfig()).toMatchObject({ mqttUsername: 'shuili-node', mqttPassword: 'p@ss' });
    process.env.MQTT_USERNAME = 'consumer';
    process.env.MQTT_PASSWORD = 'other';
    process.env.MQTT_AUTH_SECRET = 'a-long-shared-secret';
    expect(loadConfig()).toMatchObject({
      mqttUsername: 'consumer',
      mqttPassword: 'other',
      mqttAuthSecret: 'a-long-shared-secret',
    });
    process.env.MQTT_AUTH_SECRET = 'short';
    expect(() => loadConfig()).toThrow(/MQTT_AUTH_SECRET/);
    process.env.MQTT_AUTH_SECRET = 'a-long-shared-secret';
    // The consumers speak MQTT over TCP or TLS: a WebSocket URL is refused at start.
    process.env.MQTT_URL = 'mqtts://broker.example.com';
    expect(loadConfig().mqttUrl).toBe('mqtts://broker.example.com');
    process.env.MQTT_URL = 'wss://broker.example.com/mqtt';
    expect(() => loadConfig()).toThrow(/MQTT_URL must be an mqtt:\/\/ or mqtts:\/\/ URL/);
    process.env.MQTT_URL = 'mqtt://broker.example.com';
    process.env.MQTT_AUTH_SECRET = 'a-long-shared-secret';
    // It would look like a device identity to the auth hooks.
    process.env.MQTT_USERNAME = 'demo:server';
    expect(() => loadConfig()).toThrow(/MQTT_USERNAME/);
  });
});

describe('MQTT consumer session settings', () => {
  const names = [
    'MQTT_NODE_ID',
    'MQTT_SESSION_EXPIRY_SECONDS',
    'MQTT_LEAVE_ON_STOP',
    'PORT',
  ] as const;
  const saved = names.map((name) => process.env[name]);
  afterEach(() => {
    names.forEach((name, i) => {
      if (saved[i] === undefined) delete process.env[name];
      else process.env[name] = saved[i];
    });
  });

  it('names the node after its host and port unless told, keeps sessions an hour, stays on stop', () => {
    for (const name of names) delete process.env[name];
    process.env.PORT = '8081';
    const config = loadConfig();
    expect(config.mqttNodeId).toMatch(/^[A-Za-z0-9._-]+-8081$/);
    expect(config).toMatchObject({ mqttSessionExpirySeconds: 3600, mqttLeaveOnStop: false });
    process.env.MQTT_NODE_ID = 'api-2';
    process.env.MQTT_SESSION_EXPIRY_SECONDS = '0';
    process.env.MQTT_LEAVE_ON_STOP = 'true';
    expect(loadConfig()).toMatchObject({
      mqttNodeId: 'api-2',
      mqttSessionExpirySeconds: 0,
      mqttLeaveOnStop: true,
    });
    // Client ids are shuili-{node}-{role}: never a device's tenant:device, never a topic wildcard.
    for (const bad of ['demo:1', 'a/b', 'x'.repeat(65)]) {
      process.env.MQTT_NODE_ID = bad;
      expect(() => loadConfig()).toThrow(/MQTT_NODE_ID/);
    }
  });
});
