// Fails `npm run mutate` when any mutated module, not only the total, scores below the threshold.
// Reads Stryker's JSON report (mutation-testing-report-schema). A module's score is what Stryker
// calls the mutation score: killed and timed-out mutants over all valid ones, mutants no test runs
// (NoCoverage) included, so code without tests counts against its module.
import fs from 'node:fs';

const REPORT = 'reports/mutation/mutation.json';
const THRESHOLD = 90;
const DETECTED = new Set(['Killed', 'Timeout']);
const VALID = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

const { files } = JSON.parse(fs.readFileSync(REPORT, 'utf8'));
let failed = false;
for (const [file, { mutants }] of Object.entries(files).sort()) {
  const valid = mutants.filter((m) => VALID.has(m.status));
  const detected = valid.filter((m) => DETECTED.has(m.status)).length;
  const score = valid.length === 0 ? 100 : (100 * detected) / valid.length;
  const low = score < THRESHOLD;
  failed ||= low;
  console.log(`${low ? '✗' : '✓'} ${score.toFixed(1).padStart(5)} %  ${detected}/${valid.length}  ${file}`);
}
if (failed) {
  console.error(`mutation score below ${THRESHOLD} % in a module (${REPORT})`);
  process.exit(1);
}
