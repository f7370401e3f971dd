import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_ORIGINS, normalizeOrigin } from './origin-policy';
import { DEFAULT_CARD_READER_PORT } from './protocol';

export interface CliOptions {
  port: number;
  origins: string[];
  backend: 'simulated' | 'pcsc';
  /** Simulated reader: the folder of card files. */
  cardsDir: string;
  /** Simulated reader: the card placed at start. */
  present: string | undefined;
  /** PC/SC: key A of the card's sectors 1 and 2 (6 bytes). */
  keyA: Uint8Array;
  readerFilter: string | undefined;
  pcscModule: string | undefined;
  help: boolean;
}

export const USAGE = `Shuili card-reading service: the service desk's card reader for the console's browser.

npm run card-reader -- [options]      (or: npx shuili-card-reader [options])

  --simulate            a simulated reader whose cards are JSON files (default: PC/SC reader)
  --cards <dir>         simulated cards' folder (default ./data/cards; CARD_READER_CARDS)
  --present <uid>       simulated: place this card at start (a new blank card if it has no file)
  --port <n>            WebSocket port on 127.0.0.1 (default ${DEFAULT_CARD_READER_PORT}; CARD_READER_PORT)
  --origin <origin>     a console allowed to connect, repeatable (CARD_READER_ORIGINS, comma-
                        separated); default ${DEFAULT_ORIGINS.join(' and ')}
  --key <12 hex>        PC/SC: key A of sectors 1 and 2 (default FFFFFFFFFFFF; CARD_READER_KEY)
  --reader <text>       PC/SC: use the reader whose name contains this (CARD_READER_NAME)
  --pcsc-module <name>  PC/SC: the native module to load (default @pokusew/pcsclite, then pcsclite)
  --help
`;

function port(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`--port must be a port number, got "${raw}"`);
  return value;
}

function key(raw: string): Uint8Array {
  if (!/^[0-9A-Fa-f]{12}$/.test(raw)) throw new Error('--key must be 12 hex digits (6 bytes)');
  return new Uint8Array(Buffer.from(raw, 'hex'));
}

/** Command-line options, each with its environment variable; checked here, at start. */
export function parseOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      simulate: { type: 'boolean' },
      cards: { type: 'string' },
      present: { type: 'string' },
      port: { type: 'string' },
      origin: { type: 'string', multiple: true },
      key: { type: 'string' },
      reader: { type: 'string' },
      'pcsc-module': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  // npm runs workspace scripts in the package's folder; INIT_CWD is where the user typed it.
  const base = env.INIT_CWD || process.cwd();
  const origins = values.origin?.length
    ? values.origin
    : (env.CARD_READER_ORIGINS ?? '').split(',').filter((value) => value.trim());
  const present = values.present?.trim().toUpperCase();
  if (present !== undefined && !/^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$/.test(present))
    throw new Error('--present must be a UID of 4, 7 or 10 bytes in hex');
  return {
    port: port(values.port ?? env.CARD_READER_PORT ?? String(DEFAULT_CARD_READER_PORT)),
    // The defaults only when no console is named: naming one is saying which consoles there are.
    origins: origins.length ? origins.map(normalizeOrigin) : DEFAULT_ORIGINS,
    backend: values.simulate || env.CARD_READER_BACKEND === 'simulated' ? 'simulated' : 'pcsc',
    cardsDir: path.resolve(base, values.cards ?? env.CARD_READER_CARDS ?? 'data/cards'),
    present,
    keyA: key(values.key ?? env.CARD_READER_KEY ?? 'FFFFFFFFFFFF'),
    readerFilter: values.reader ?? env.CARD_READER_NAME,
    pcscModule: values['pcsc-module'],
    help: values.help ?? false,
  };
}
