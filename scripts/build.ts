import { buildIfNeeded } from './build-state';

buildIfNeeded({ force: process.argv.includes('--force') });
