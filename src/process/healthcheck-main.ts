// `node dist/src/process/healthcheck-main.js`: the image's HEALTHCHECK command (healthcheck.ts
// says what it asks). Exit 0: healthy; 1: not.
import { anyReady, containerListeners } from './healthcheck.js';

process.exitCode = (await anyReady(containerListeners())) ? 0 : 1;
