#!/usr/bin/env node
// The package's source is TypeScript run through tsx (as the rest of the repository): register
// tsx's loader, then start the service.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
