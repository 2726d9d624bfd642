import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExposition } from '../support/prometheus.js';
import { uniqueKeyPrefix } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 34, item 6: a Redis that accepts connections but stopped answering (SIGSTOP) used to cost
 * every rate-limited request the command timeout. Now, after a few timeouts in a row, the limiter
 * stops asking it for a cool-down and fails open at once, then probes it; once it answers, limits
 * apply again. This suite runs a redis-server of its own, so it can stop and resume it.
 */
const COMMAND_TIMEOUT_MS = 1000;
const TRIP_AFTER = 3;
const COOL_DOWN_MS = 5000;
const LIMIT = 5;
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

const redisServerProblem = (() => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
})();
if (redisServerProblem && process.env.CI === 'true') {
  throw new Error(`redis-server is required in CI: ${redisServerProblem}`);
}
if (redisServerProblem) {
  process.stderr.write(`[ferry tests] skipping the stalled-Redis suite: no redis-server (${redisServerProblem})\n`);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** A throwaway redis-server; resolves once it accepts connections. */
async function startRedis(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  return { child, url: `redis://127.0.0.1:${port}` };
}

(redisServerProblem === undefined ? describe : describe.skip)('a stalled rate-limit Redis (SIGSTOP)', () => {
  let redis: { child: ChildProcess; url: string };
  let server: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    const keyPrefix = uniqueKeyPrefix();
    server = await startTestServer('sqlite', {
      env: { BASELINE_RATE_LIMIT_PER_MINUTE: String(LIMIT), REDIS_URL: redis.url, METRICS_TOKEN },
      configure: (config) => ({
        ...config,
        limits: {
          ...config.limits,
          redis: {
            url: redis.url,
            keyPrefix,
            commandTimeoutMs: COMMAND_TIMEOUT_MS,
            breaker: { tripAfter: TRIP_AFTER, coolDownMs: COOL_DOWN_MS },
          },
        },
      }),
    });
  });
  afterAll(async () => {
    await server?.close();
    // Always resumed before it is killed: a stopped process would not act on SIGTERM until then.
    if (redis?.child.pid !== undefined && redis.child.exitCode === null) {
      const exited = new Promise((resolve) => redis.child.once('exit', resolve));
      redis.child.kill('SIGCONT');
      redis.child.kill('SIGKILL');
      await exited;
    }
  });

  /** A request the per-address baseline limit counts: its status and whether it waited the command timeout. */
  const lookup = async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/updates/baseline-fingerprint?platform=ios&runtimeVersion=1.0.0(1)`);
    await response.arrayBuffer();
    return { status: response.status, waited: performance.now() - started >= COMMAND_TIMEOUT_MS };
  };

  /** ferry_rate_limit_redis_breaker_open as /metrics reports it. */
  const breakerOpen = async () => {
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const samples = parseExposition(await response.text()).samples.get('ferry_rate_limit_redis_breaker_open');
    return samples?.[0]?.value;
  };

  it('waits the command timeout a few times, then passes at once until Redis answers, then limits again', async () => {
    expect((await lookup()).status).toBe(404);
    expect(await breakerOpen()).toBe(0);
    redis.child.kill('SIGSTOP');

    const started = performance.now();
    const results = [];
    for (let i = 0; i < 20; i++) results.push(await lookup());
    const elapsed = performance.now() - started;
    // Fail open: every one passes (404: no such release), none is 429 or 5xx.
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(404));
    // TRIP_AFTER timeouts open the breaker; after that only a probe, one per cool-down at most,
    // waits for Redis. The bound grows with the time the requests took, so a slow machine cannot fail it.
    const waited = results.filter((result) => result.waited).length;
    expect(waited).toBeGreaterThanOrEqual(TRIP_AFTER);
    expect(waited).toBeLessThanOrEqual(TRIP_AFTER + Math.ceil(elapsed / COOL_DOWN_MS));
    const opened = server.logs
      .entries()
      .filter((entry) => String(entry.msg).startsWith('rate-limit Redis is not answering'));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ level: 40 });
    expect(server.logs.text).not.toContain(redis.url);
    expect(await breakerOpen()).toBe(1);

    redis.child.kill('SIGCONT');
    // The breaker closes on the first probe after the cool-down that Redis answers.
    await expect
      .poll(async () => {
        await lookup();
        return breakerOpen();
      })
      .toBe(0);
    // Counting again: the budget runs out.
    const statuses = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await lookup()).status);
    expect(statuses).toContain(429);
    const closed = server.logs
      .entries()
      .filter((entry) => entry.msg === 'rate-limit Redis answers again: rate limits apply');
    expect(closed).toHaveLength(1);
  });
});
