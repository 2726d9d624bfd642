import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A cgroup whose processes share a CPU quota, as a container's CPU limit sets one. */
export interface CpuQuota {
  /** A command prefix that moves the process it runs into the cgroup, then runs the rest of its line. */
  wrapper: string[];
  /** Periods in which the cgroup's processes were held back by the quota (so the limit did bite). */
  throttledPeriods(): number;
  /** Removes the cgroup; its processes must have exited. */
  remove(): void;
}

const V1_CPU = '/sys/fs/cgroup/cpu';
const V2_ROOT = '/sys/fs/cgroup';
const PERIOD_US = 100_000;

const wrapperFor = (dir: string) => ['sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir];

const statField = (file: string, name: string): number =>
  Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(fs.readFileSync(file, 'utf8'))?.[1] ?? 0);

/**
 * A cgroup limited to `percent` of one core (cgroup v1's cpu controller, or v2's cpu.max), or the
 * reason none can be made here (not root, no writable cpu controller).
 */
export function createCpuQuota(percent: number): CpuQuota | { unavailable: string } {
  const quotaUs = Math.round((PERIOD_US * percent) / 100);
  const name = `ferry-test-${process.pid}-${randomBytes(3).toString('hex')}`;
  try {
    if (fs.existsSync(path.join(V1_CPU, 'cpu.cfs_quota_us'))) {
      const dir = path.join(V1_CPU, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
      fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs));
      return {
        wrapper: wrapperFor(dir),
        throttledPeriods: () => statField(path.join(dir, 'cpu.stat'), 'nr_throttled'),
        remove: () => fs.rmdirSync(dir),
      };
    }
    if (fs.readFileSync(path.join(V2_ROOT, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu')) {
      const dir = path.join(V2_ROOT, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
      return {
        wrapper: wrapperFor(dir),
        throttledPeriods: () => statField(path.join(dir, 'cpu.stat'), 'nr_throttled'),
        remove: () => fs.rmdirSync(dir),
      };
    }
    return { unavailable: 'no cgroup cpu controller (v1 or v2) on this machine' };
  } catch (error) {
    return { unavailable: `cannot make a cgroup with a CPU quota here: ${(error as Error).message}` };
  }
}
