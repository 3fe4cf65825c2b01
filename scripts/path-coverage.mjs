// `npm run test:paths`: runs the unit project (every machine test among them) with coverage recording
// on, then prints, per machine,
// states reached / total and transitions taken / total. Fails if any machine is below 100% or has no
// path test at all.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'path-coverage-'));
const run = spawnSync('npx', ['vitest', 'run', '--project', 'unit', ...process.argv.slice(2)], {
  stdio: 'inherit', env: { ...process.env, PATH_COVERAGE_DIR: dir },
});
if (run.status !== 0) process.exit(run.status ?? 1);

const byMachine = new Map();
for (const file of readdirSync(dir)) {
  for (const [id, report] of Object.entries(JSON.parse(readFileSync(join(dir, file), 'utf8')))) {
    const list = byMachine.get(id) ?? [];
    list.push(report);
    byMachine.set(id, list);
  }
}
rmSync(dir, { recursive: true, force: true });

const machineIds = readdirSync('machines').filter((f) => f.endsWith('.machine.ts'))
  // A file that only types or provides a machine made elsewhere (the subscriber search is the list machine, issue 39): its paths are that machine's.
  .filter((f) => readFileSync(join('machines', f), 'utf8').includes('createMachine('))
  .map((f) => readFileSync(join('machines', f), 'utf8').match(/createMachine\(\{\s*id: '([^']+)'/)?.[1] ?? f);

let failed = false;
const pct = (a, b) => (b === 0 ? 100 : (100 * a) / b).toFixed(1).padStart(5);
console.log('\nPath coverage per machine');
console.log('machine'.padEnd(18), 'states'.padEnd(18), 'transitions');
for (const id of machineIds) {
  const reports = byMachine.get(id);
  if (!reports) {
    console.log(id.padEnd(18), 'NO PATH TEST');
    failed = true;
    continue;
  }
  const missingStates = reports.reduce((acc, r) => acc.filter((s) => r.states.missing.includes(s)), reports[0].states.missing);
  const missingTransitions = reports.reduce((acc, r) => acc.filter((t) => r.transitions.missing.includes(t)), reports[0].transitions.missing);
  const { total: st } = reports[0].states;
  const { total: tt } = reports[0].transitions;
  const sr = st - missingStates.length;
  const tr = tt - missingTransitions.length;
  console.log(id.padEnd(18), `${sr}/${st} (${pct(sr, st)}%)`.padEnd(18), `${tr}/${tt} (${pct(tr, tt)}%)`);
  for (const m of [...missingStates, ...missingTransitions]) console.log('   missing:', m);
  if (sr < st || tr < tt) failed = true;
}
process.exit(failed ? 1 : 0);
