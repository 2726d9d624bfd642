#!/usr/bin/env node
// The share of a server's busy CPU spent under named functions, read from V8 CPU profiles
// (docs/benchmarks.md, "Comparing code, not machines"). A benchmark's ratios move with the machine;
// a function's share of the same process's CPU does not, so two commits' manifest paths can be
// compared by what their own code costs.
//
//   NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" BENCH_ROUNDS=1 npm run bench:manifest
//   node scripts/cpu-profile-share.mjs /tmp/prof manifest-fast-path replyToManifest pickHeaders
//
// The profile read is the largest one that contains the first name (the server's, not the
// benchmark's or wrk's). Each name is matched against function names and script file names; a
// sample counts for a name when the name is anywhere on its stack. Idle time is left out.
import fs from 'node:fs';
import path from 'node:path';

const [dir, ...names] = process.argv.slice(2);
if (!dir || names.length === 0) {
  console.error('usage: node scripts/cpu-profile-share.mjs <profile dir> <name> [name …]');
  process.exit(2);
}
let chosen;
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  if (text.includes(names[0]) && (!chosen || text.length > chosen.text.length)) chosen = { file, text };
}
if (!chosen) {
  console.error(`no profile in ${dir} mentions ${names[0]}`);
  process.exit(1);
}
const profile = JSON.parse(chosen.text);
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const matches = (frame, name) => frame.functionName === name || frame.url.includes(name);
let busy = 0;
const under = new Map(names.map((name) => [name, 0]));
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  if (nodes.get(id).callFrame.functionName === '(idle)') return;
  busy += delta;
  const stack = [];
  for (let at = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at).callFrame);
  for (const name of names) if (stack.some((frame) => matches(frame, name))) under.set(name, under.get(name) + delta);
});
console.log(`${chosen.file}: ${(busy / 1e6).toFixed(1)} s of busy CPU`);
for (const [name, time] of under) console.log(`${((100 * time) / busy).toFixed(2).padStart(6)} %  ${name}`);
