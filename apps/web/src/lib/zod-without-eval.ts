/**
 * zod compiles object schemas with `new Function` when it may. The console's CSP forbids eval
 * (script-src 'self', no 'unsafe-eval'), and even zod's probe for it is reported as a violation,
 * so the console tells zod to validate without compiling. zod keeps its settings in this global
 * object, shared by every copy of it, and reads `jitless` when it first validates; setting it on
 * the shared object here, without importing zod, keeps zod out of the entry chunk. Imported
 * first by main.tsx.
 */
const shared = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
shared.__zod_globalConfig ??= {};
shared.__zod_globalConfig.jitless = true;

export {};
