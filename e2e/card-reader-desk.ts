import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRESENT_FILE } from '@shuili/card-reader';
import { EXIT_WITH_PARENT } from '@shuili/test-support/server-process';

/**
 * The card-reading service with its simulated reader (cards as files in one folder), as a
 * service desk runs it beside the browser: started, a card laid on it, a card file read.
 */

const BIN = fileURLToPath(
  new URL('../packages/card-reader/bin/shuili-card-reader.mjs', import.meta.url),
);

/** Starts the service on `port` for the console at `origin`; resolves once it listens. */
export function startCardReader(
  cards: string,
  port: number,
  origin: string,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      ...EXIT_WITH_PARENT,
      BIN,
      '--simulate',
      '--cards',
      cards,
      '--port',
      String(port),
      '--origin',
      origin,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`the service did not start: ${output}`)),
      20_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on ws://127.0.0.1:')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}

/** Lays the card with this UID on the simulated reader (a new blank card when it has no file). */
export const placeCard = (cards: string, uid: string) =>
  fs.writeFileSync(path.join(cards, PRESENT_FILE), `${uid}\n`);

function blocksOf(cards: string, uid: string): string[] {
  const file = JSON.parse(fs.readFileSync(path.join(cards, `${uid}.json`), 'utf8')) as {
    blocks: string[];
  };
  return file.blocks;
}

/** The purse of a simulated card's file (block 8: balance int32 LE, sequence uint32 LE). */
export function purseOf(cards: string, uid: string): { balanceFen: number; sequence: number } {
  const block = Buffer.from(blocksOf(cards, uid)[8]!, 'hex');
  return { balanceFen: block.readInt32LE(0), sequence: block.readUInt32LE(4) };
}

/**
 * The card number written on a simulated card, or '' on a blank card: ASCII, NUL-padded over
 * blocks 5 and 6, 14 bytes each (card-layout.ts LAYOUT.cardNo); an 8-digit UID-style number
 * lies wholly in block 5.
 */
export function cardNoOn(cards: string, uid: string): string {
  const blocks = blocksOf(cards, uid);
  const text = [5, 6].map((block) => Buffer.from(blocks[block]!, 'hex').subarray(0, 14));
  return Buffer.concat(text).toString('ascii').replace(/\0+$/, '');
}
