import { BLOCK_SIZE, isTrailer } from '../card-layout';
import { CardReaderFailure } from '../errors';
import type { ReaderStatus } from '../protocol';
import type { ReaderBackend } from './backend';
import { readerSerial } from './reader-serial';

/**
 * The native PC/SC bindings tried in turn. Neither is a dependency of this package: they compile
 * against the system's PC/SC library, which most machines (and CI) lack, so `npm ci` must never
 * need them. A service desk installs one where its reader is (README.md).
 */
export const PCSC_MODULES = ['@pokusew/pcsclite', 'pcsclite'];

/** The parts of the pcsclite API used here (both modules share it). */
interface PcscReader {
  name: string;
  state: number;
  SCARD_STATE_PRESENT: number;
  SCARD_SHARE_SHARED: number;
  SCARD_LEAVE_CARD: number;
  on(event: 'status', listener: (status: { state: number }) => void): void;
  on(event: 'end' | 'error', listener: (error?: Error) => void): void;
  connect(
    options: { share_mode: number },
    callback: (error: Error | null, protocol: number) => void,
  ): void;
  disconnect(mode: number, callback: (error: Error | null) => void): void;
  transmit(
    data: Buffer,
    length: number,
    protocol: number,
    callback: (error: Error | null, data: Buffer) => void,
  ): void;
  close(): void;
}
interface PcscContext {
  on(event: 'reader', listener: (reader: PcscReader) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  close(): void;
}

/** A card being talked to: its UID and the sector the reader is authenticated to. */
interface Connected {
  uid: string;
  protocol: number;
  sector: number | null;
}

/**
 * A USB reader through PC/SC (pcscd on Linux, the smart-card service on Windows and macOS) that
 * speaks the PC/SC part 3 storage-card commands for MIFARE Classic, as ACR122U-style contactless
 * readers do: get UID (FF CA), load key (FF 82), authenticate (FF 86, key A), read (FF B0) and
 * update binary (FF D6). The first reader found is used, or the first whose name contains
 * readerFilter.
 */
export class PcscReaderBackend implements ReaderBackend {
  readonly name = 'pcsc' as const;
  private context: PcscContext | undefined;
  private reader: PcscReader | undefined;
  private card: Connected | undefined;
  /** A connection to a newly placed card under way (status events come in bursts). */
  private connecting = false;
  private problem: string | null = null;
  private onChange: () => void = () => {};

  constructor(
    private readonly options: { keyA: Uint8Array; readerFilter?: string; modules?: string[] },
  ) {}

  async start(onChange: () => void): Promise<void> {
    this.onChange = onChange;
    const factory = await loadPcsc(this.options.modules ?? PCSC_MODULES);
    if (typeof factory === 'string') {
      this.problem = factory;
      return;
    }
    try {
      this.context = factory();
    } catch (error) {
      this.problem = `PC/SC could not start (is the PC/SC service running?): ${String(error)}`;
      return;
    }
    this.problem = 'no card reader is connected';
    this.context.on('error', (error) => {
      this.problem = `PC/SC: ${error.message}`;
      this.onChange();
    });
    this.context.on('reader', (reader) => this.adopt(reader));
  }

  private adopt(reader: PcscReader): void {
    const filter = this.options.readerFilter?.toLowerCase();
    if (this.reader || (filter && !reader.name.toLowerCase().includes(filter))) return;
    this.reader = reader;
    this.problem = null;
    reader.on('error', (error) => {
      this.problem = `reader ${reader.name}: ${error?.message ?? 'error'}`;
      this.onChange();
    });
    reader.on('end', () => {
      this.reader = undefined;
      this.card = undefined;
      this.problem = 'the card reader was unplugged';
      this.onChange();
    });
    reader.on('status', (status) => {
      const present = (status.state & reader.SCARD_STATE_PRESENT) !== 0;
      if (present && !this.card && !this.connecting) void this.connect(reader);
      if (!present && this.card) {
        this.card = undefined;
        reader.disconnect(reader.SCARD_LEAVE_CARD, () => {});
        this.onChange();
      }
    });
    this.onChange();
  }

  private async connect(reader: PcscReader): Promise<void> {
    this.connecting = true;
    try {
      const protocol = await new Promise<number>((resolve, reject) =>
        reader.connect({ share_mode: reader.SCARD_SHARE_SHARED }, (error, value) =>
          error ? reject(error) : resolve(value),
        ),
      );
      const uid = await this.transmit(protocol, [0xff, 0xca, 0x00, 0x00, 0x00]);
      // Key A into the reader's volatile slot 0, which every authentication below names.
      await this.transmit(protocol, [0xff, 0x82, 0x00, 0x00, 0x06, ...this.options.keyA]);
      this.card = { uid: Buffer.from(uid).toString('hex').toUpperCase(), protocol, sector: null };
    } catch (error) {
      this.problem = `the card could not be read: ${String(error)}`;
    } finally {
      this.connecting = false;
    }
    this.onChange();
  }

  /** Sends an APDU; answers the data before the status word, which must be 90 00. */
  private transmit(protocol: number, apdu: number[]): Promise<Uint8Array> {
    const reader = this.reader;
    if (!reader) return Promise.reject(new CardReaderFailure('NO_READER', 'no card reader'));
    return new Promise((resolve, reject) =>
      reader.transmit(Buffer.from(apdu), 64, protocol, (error, data) => {
        if (error) return reject(new CardReaderFailure('READER_ERROR', error.message));
        const sw = data.subarray(-2);
        if (sw[0] !== 0x90 || sw[1] !== 0x00)
          return reject(
            new CardReaderFailure('READER_ERROR', `the card answered ${sw.toString('hex')}`),
          );
        resolve(new Uint8Array(data.subarray(0, -2)));
      }),
    );
  }

  private async ready(uid: string, block: number): Promise<Connected> {
    if (!this.reader) throw new CardReaderFailure('NO_READER', this.problem ?? 'no card reader');
    const card = this.card;
    if (!card) throw new CardReaderFailure('NO_CARD', 'no card lies on the reader');
    if (card.uid !== uid)
      throw new CardReaderFailure('WRONG_CARD', `card ${card.uid} lies on the reader, not ${uid}`);
    const sector = Math.floor(block / 4);
    if (card.sector !== sector) {
      card.sector = null;
      await this.transmit(card.protocol, [0xff, 0x86, 0, 0, 5, 1, 0, block, 0x60, 0]).catch(() => {
        throw new CardReaderFailure(
          'READER_ERROR',
          `sector ${sector} refused key A (a card of another issuer, or --key is wrong)`,
        );
      });
      card.sector = sector;
    }
    return card;
  }

  status(): ReaderStatus {
    return {
      backend: this.name,
      readerPresent: this.reader !== undefined,
      readerName: this.reader?.name ?? null,
      readerSerial: this.reader ? readerSerial(this.reader.name) : null,
      cardPresent: this.card !== undefined,
      cardUid: this.card?.uid ?? null,
      problem: this.problem,
    };
  }

  async readBlock(uid: string, block: number): Promise<Uint8Array> {
    const card = await this.ready(uid, block);
    const data = await this.transmit(card.protocol, [0xff, 0xb0, 0, block, BLOCK_SIZE]);
    if (data.length !== BLOCK_SIZE)
      throw new CardReaderFailure('READER_ERROR', `block ${block} came back ${data.length} bytes`);
    return data;
  }

  async writeBlock(uid: string, block: number, data: Uint8Array): Promise<void> {
    if (block <= 0 || isTrailer(block) || data.length !== BLOCK_SIZE)
      throw new CardReaderFailure('READER_ERROR', `block ${block} is not a data block`);
    const card = await this.ready(uid, block);
    await this.transmit(card.protocol, [0xff, 0xd6, 0, block, BLOCK_SIZE, ...data]);
  }

  async close(): Promise<void> {
    this.context?.close();
  }
}

/** The first PC/SC module that loads, or why none did (for the status's problem). */
async function loadPcsc(modules: string[]): Promise<(() => PcscContext) | string> {
  const failures: string[] = [];
  for (const name of modules) {
    try {
      // A name in a variable, so neither TypeScript nor a bundler goes looking for the module.
      const loaded = (await import(name)) as { default?: unknown };
      const factory = loaded.default ?? loaded;
      if (typeof factory === 'function') return factory as () => PcscContext;
      failures.push(`${name}: not the pcsclite API`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      failures.push(
        code === 'ERR_MODULE_NOT_FOUND' ? `${name}: not installed` : `${name}: ${String(error)}`,
      );
    }
  }
  return `no PC/SC module could be loaded (${failures.join('; ')}); install one beside the service: npm install --no-save @pokusew/pcsclite`;
}
