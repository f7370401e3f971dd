import os from 'node:os';

/**
 * A desk reader's name for the server's list of readers (spec /skgg/readDeviceList): the reader
 * and the computer it hangs on, since two desks may have readers of the same model.
 */
export function readerSerial(reader: string): string {
  return `${reader}@${os.hostname()}`.slice(0, 128);
}
