export * from './protocol';
export { startCardReaderService, type CardReaderService } from './server';
export { SimulatedReader, PRESENT_FILE, type CardFile } from './backends/simulated';
export { PcscReaderBackend } from './backends/pcsc';
export type { ReaderBackend } from './backends/backend';
export { DEFAULT_ORIGINS } from './origin-policy';
