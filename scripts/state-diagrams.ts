import fs from 'node:fs';
import { stateMachinesMarkdown } from '../lib/server/state-machines';

// Writes docs/state-machines.md from the transition tables (tests/unit/state-machines-doc.test.ts checks it).
fs.writeFileSync('docs/state-machines.md', stateMachinesMarkdown());
