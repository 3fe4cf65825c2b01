/** Writes docs/demo-accounts.md from server/db/demo-accounts.ts. */
import { writeFileSync } from 'node:fs';
import { renderDemoAccountsDoc } from '../server/db/demo-accounts-doc';

writeFileSync(new URL('../docs/demo-accounts.md', import.meta.url), renderDemoAccountsDoc());
console.log('docs/demo-accounts.md written');
