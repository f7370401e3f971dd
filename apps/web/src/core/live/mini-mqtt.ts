/**
 * The console's own MQTT 3.1.1 client over WebSocket, for what a browser does with the broker:
 * connect with its token, subscribe, receive (browsers publish nothing, DESIGN §6). A few
 * hundred bytes where mqtt.js is about 100 KB gzipped: the navbar's bell listens on every
 * screen, so the connection is part of the shell, which has a budget (e2e/bundle.test.ts).
 */

export interface MiniOptions {
  clientId: string;
  username: string;
  password: string;
  /** Seconds between pings; the connection is given up after one and a half without a word. */
  keepalive: number;
  /** Milliseconds to wait for the broker's CONNACK. */
  connectTimeout: number;
}

/** An error of the connection; `code` is the CONNACK return code when the broker refused. */
export type MiniError = Error & { code?: number };

interface Events {
  connect: () => void;
  message: (topic: string, payload: Uint8Array) => void;
  error: (error: MiniError) => void;
  close: () => void;
}

const encoder = new TextEncoder();

/**
 * The longest packet taken from the broker. Live pushes are small JSON; a longer one (or a
 * remaining length of more than the four bytes MQTT allows) is a broken stream, given up rather
 * than buffered while the page's memory grows.
 */
const MAX_PACKET_BYTES = 4 * 1024 * 1024;

function text(value: string): number[] {
  const bytes = encoder.encode(value);
  return [bytes.length >> 8, bytes.length & 255, ...bytes];
}

/** A packet: type byte, remaining length (MQTT §2.2.3 variable length), body. */
function packet(type: number, body: number[]): Uint8Array {
  const length: number[] = [];
  let rest = body.length;
  do {
    let digit = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) digit |= 128;
    length.push(digit);
  } while (rest > 0);
  return new Uint8Array([type, ...length, ...body]);
}

export class MiniMqttClient {
  connected = false;
  private readonly socket: WebSocket;
  private readonly handlers: { [K in keyof Events]?: Events[K][] } = {};
  private buffer = new Uint8Array(0);
  private nextId = 1;
  private lastHeard = Date.now();
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(url: string, options: MiniOptions) {
    this.socket = new WebSocket(url, 'mqtt');
    this.socket.binaryType = 'arraybuffer';
    const timeout = setTimeout(
      () => this.fail(new Error('connack timeout')),
      options.connectTimeout,
    );
    this.socket.onopen = () =>
      this.send(
        packet(0x10, [
          ...text('MQTT'),
          4,
          // username, password, clean session
          0xc2,
          options.keepalive >> 8,
          options.keepalive & 255,
          ...text(options.clientId),
          ...text(options.username),
          ...text(options.password),
        ]),
      );
    this.socket.onmessage = (event) => {
      this.lastHeard = Date.now();
      const data = new Uint8Array(event.data as ArrayBuffer);
      const joined = new Uint8Array(this.buffer.length + data.length);
      joined.set(this.buffer);
      joined.set(data, this.buffer.length);
      this.buffer = joined;
      this.read(() => {
        clearTimeout(timeout);
        this.timer = setInterval(() => {
          if (Date.now() - this.lastHeard > options.keepalive * 1500)
            this.fail(new Error('keepalive timeout'));
          else this.send(new Uint8Array([0xc0, 0]));
        }, options.keepalive * 1000);
      });
    };
    this.socket.onerror = () => this.emit('error', new Error('connection error'));
    this.socket.onclose = () => {
      clearTimeout(timeout);
      this.finish();
    };
  }

  on<K extends keyof Events>(event: K, handler: Events[K]): this {
    const list = (this.handlers[event] ??= []) as Events[K][];
    list.push(handler);
    return this;
  }

  subscribe(filters: string | string[], options: { qos: 0 | 1 }): void {
    const body = [...this.packetId()];
    for (const filter of [filters].flat()) body.push(...text(filter), options.qos);
    this.send(packet(0x82, body));
  }

  unsubscribe(filter: string): void {
    this.send(packet(0xa2, [...this.packetId(), ...text(filter)]));
  }

  /** Says goodbye (DISCONNECT) and closes. */
  end(_force?: boolean): void {
    if (this.connected) this.send(new Uint8Array([0xe0, 0]));
    this.socket.close();
    this.finish();
  }

  private packetId(): number[] {
    const id = this.nextId;
    this.nextId = (this.nextId % 65535) + 1;
    return [id >> 8, id & 255];
  }

  private send(bytes: Uint8Array): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(bytes);
  }

  /** Handles every whole packet in the buffer (a packet may span WebSocket frames). */
  private read(onConnected: () => void): void {
    for (;;) {
      const data = this.buffer;
      let length = 0;
      let multiplier = 1;
      let offset = 1;
      for (;;) {
        if (offset >= data.length) return;
        const digit = data[offset++]!;
        length += (digit & 127) * multiplier;
        multiplier *= 128;
        if ((digit & 128) === 0) break;
        if (offset > 4) {
          this.fail(new Error('malformed packet length'));
          return;
        }
      }
      if (length > MAX_PACKET_BYTES) {
        this.fail(new Error('packet too long'));
        return;
      }
      if (data.length < offset + length) return;
      const body = data.subarray(offset, offset + length);
      this.buffer = data.slice(offset + length);
      const type = data[0]! >> 4;
      if (type === 2) {
        const code = body[1]!;
        if (code !== 0) {
          this.fail(Object.assign(new Error(`connection refused (${code})`), { code }));
          return;
        }
        this.connected = true;
        onConnected();
        this.emit('connect');
      } else if (type === 3) {
        const qos = (data[0]! >> 1) & 3;
        const topicLength = (body[0]! << 8) | body[1]!;
        const topic = new TextDecoder().decode(body.subarray(2, 2 + topicLength));
        let start = 2 + topicLength;
        if (qos > 0) {
          // QoS 1: acknowledge (PUBACK) with the packet's id.
          this.send(new Uint8Array([0x40, 2, body[start]!, body[start + 1]!]));
          start += 2;
        }
        this.emit('message', topic, body.slice(start));
      }
    }
  }

  private fail(error: MiniError): void {
    this.emit('error', error);
    this.socket.close();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.connected = false;
    clearInterval(this.timer);
    this.emit('close');
  }

  private emit<K extends keyof Events>(event: K, ...args: Parameters<Events[K]>): void {
    for (const handler of this.handlers[event] ?? [])
      (handler as (...all: Parameters<Events[K]>) => void)(...args);
  }
}
