import type { Duplex } from 'node:stream';

/**
 * Watches the MQTT packets arriving on a connection and ends it as soon as a packet announces
 * more than `maxBytes`: the MQTT parser would otherwise buffer up to 256 MB for one packet
 * before aedes could look at it. It reads the fixed header only (type byte, then the
 * "remaining length" varint of MQTT §2.2.3) and skips each body, so it costs nearly nothing.
 *
 * It listens to 'data' beside aedes' 'readable': with both, 'readable' keeps control of the
 * flow and 'data' sees every chunk aedes reads, so nothing is consumed twice.
 */
export function guardFrames(conn: Duplex, maxBytes: number, onTooBig: () => void): void {
  let skip = 0; // body bytes of the current packet still to pass
  let inHeader = false; // between the type byte and the end of the length varint
  let length = 0;
  let multiplier = 1;
  conn.on('data', (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const step = Math.min(skip, chunk.length - i);
        skip -= step;
        i += step;
        continue;
      }
      if (!inHeader) {
        inHeader = true; // the type byte
        length = 0;
        multiplier = 1;
        i += 1;
        continue;
      }
      const byte = chunk[i]!;
      i += 1;
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      if (byte & 0x80) {
        if (multiplier >= 128 ** 4) return onTooBig(); // malformed: more than 4 length bytes
        continue;
      }
      inHeader = false;
      if (length > maxBytes) return onTooBig();
      skip = length;
    }
  });
}
