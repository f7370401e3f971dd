import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MiniMqttClient } from './mini-mqtt';

/** A WebSocket that records what the client sends and lets the test play the broker. */
class FakeSocket {
  static OPEN = 1;
  static last: FakeSocket;
  readyState = 0;
  binaryType = '';
  sent: number[][] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: ArrayBuffer }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocol: string,
  ) {
    FakeSocket.last = this;
  }
  send(bytes: Uint8Array) {
    this.sent.push([...bytes]);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(...bytes: number[]) {
    this.onmessage?.({ data: new Uint8Array(bytes).buffer });
  }
}

const options = {
  clientId: 'web:demo:1',
  username: 'admin',
  password: 'token',
  keepalive: 60,
  connectTimeout: 40_000,
};

beforeEach(() => vi.stubGlobal('WebSocket', FakeSocket));
afterEach(() => vi.unstubAllGlobals());

describe('MiniMqttClient', () => {
  it('connects with MQTT 3.1.1, a clean session and the token as password', () => {
    const client = new MiniMqttClient('ws://host/mqtt', options);
    const socket = FakeSocket.last;
    expect(socket.protocol).toBe('mqtt');
    socket.open();
    const connect = socket.sent[0]!;
    expect(connect[0]).toBe(0x10);
    // protocol name, level 4, flags username + password + clean session, keepalive 60
    expect(connect.slice(2, 12)).toEqual([0, 4, 77, 81, 84, 84, 4, 0xc2, 0, 60]);
    expect(new TextDecoder().decode(new Uint8Array(connect)).endsWith('token')).toBe(true);
    const connected = vi.fn();
    client.on('connect', connected);
    socket.receive(0x20, 2, 0, 0);
    expect(connected).toHaveBeenCalledOnce();
    expect(client.connected).toBe(true);
    client.end();
  });

  it('reads messages split across frames and acknowledges QoS 1', () => {
    const client = new MiniMqttClient('ws://host/mqtt', options);
    const socket = FakeSocket.last;
    socket.open();
    socket.receive(0x20, 2, 0, 0);
    const messages: Array<[string, string]> = [];
    client.on('message', (topic, payload) =>
      messages.push([topic, new TextDecoder().decode(payload)]),
    );
    client.subscribe(['t/demo/alarm/+'], { qos: 0 });
    expect(socket.sent.at(-1)![0]).toBe(0x82);
    // PUBLISH QoS 0 "t/a" "hi", in two frames, then a QoS 1 one with packet id 7.
    socket.receive(0x30, 7, 0, 3, 116, 47);
    socket.receive(97, 104, 105, 0x32, 9, 0, 3, 116, 47, 98, 0, 7, 111, 107);
    expect(messages).toEqual([
      ['t/a', 'hi'],
      ['t/b', 'ok'],
    ]);
    expect(socket.sent.at(-1)).toEqual([0x40, 2, 0, 7]);
    client.end();
  });

  it('reports a refused token with its CONNACK code and closes', () => {
    const client = new MiniMqttClient('ws://host/mqtt', options);
    const socket = FakeSocket.last;
    const errors: Array<number | undefined> = [];
    const closed = vi.fn();
    client.on('error', (error) => errors.push(error.code));
    client.on('close', closed);
    socket.open();
    socket.receive(0x20, 2, 0, 5);
    expect(errors).toEqual([5]);
    expect(closed).toHaveBeenCalledOnce();
    expect(client.connected).toBe(false);
  });

  it('gives up a stream with a broken or huge length instead of buffering it', () => {
    for (const header of [
      // Five length bytes: MQTT allows four.
      [0x30, 0xff, 0xff, 0xff, 0xff, 0x01],
      // 256 MB announced: more than any live push, never waited for.
      [0x30, 0xff, 0xff, 0xff, 0x7f],
    ]) {
      const client = new MiniMqttClient('ws://host/mqtt', options);
      const socket = FakeSocket.last;
      const errors: string[] = [];
      const closed = vi.fn();
      client.on('error', (error) => errors.push(error.message));
      client.on('close', closed);
      socket.open();
      socket.receive(0x20, 2, 0, 0);
      socket.receive(...header);
      expect(errors).toHaveLength(1);
      expect(closed).toHaveBeenCalledOnce();
      expect(socket.readyState).toBe(3);
    }
  });
});
