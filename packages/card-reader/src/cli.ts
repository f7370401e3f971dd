import { PcscReaderBackend } from './backends/pcsc';
import { SimulatedReader } from './backends/simulated';
import { parseOptions, USAGE, type CliOptions } from './options';
import { startCardReaderService } from './server';

function log(line: string): void {
  console.log(`${new Date().toISOString()} ${line}`);
}

async function main(): Promise<void> {
  let options: CliOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const backend =
    options.backend === 'simulated'
      ? new SimulatedReader(options.cardsDir)
      : new PcscReaderBackend({
          keyA: options.keyA,
          readerFilter: options.readerFilter,
          modules: options.pcscModule ? [options.pcscModule] : undefined,
        });
  let service;
  try {
    service = await startCardReaderService({
      port: options.port,
      origins: options.origins,
      backend,
      log,
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    console.error(
      code === 'EADDRINUSE'
        ? `Port ${options.port} on 127.0.0.1 is taken: is the card-reading service already running? (--port to choose another, and CARD_READER_PORT on the server)`
        : `The card-reading service could not start: ${String(error)}`,
    );
    process.exit(1);
  }
  if (options.present && backend instanceof SimulatedReader)
    await backend.simulate.place(options.present);
  // Tests and scripts read this line for the port (with --port 0).
  log(`listening on ${service.url}`);
  const status = backend.status();
  log(
    `backend ${status.backend}: ${status.readerPresent ? `reader ${status.readerName}` : (status.problem ?? 'no reader')}`,
  );
  log(`consoles allowed: ${options.origins.join(', ')}`);
  if (backend instanceof SimulatedReader)
    log(
      `place a card: write its UID into ${options.cardsDir}/present (remove the file to take it off)`,
    );
  const stop = () => {
    void service.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
