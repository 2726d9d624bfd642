import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger } from './lazy-child-logger.js';

const capture = () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, stream };
};

describe('LazyChildLogger', () => {
  it('writes lines with the request bindings, like a pino child', () => {
    const { lines, stream } = capture();
    const parent = pino({ level: 'info' }, stream);
    const log = new LazyChildLogger(parent, { reqId: 'req-1' }, {});
    log.info({ a: 1 }, 'hello');
    log.error(new Error('boom'), 'failed');
    expect(lines).toMatchObject([
      { reqId: 'req-1', a: 1, msg: 'hello', level: 30 },
      { reqId: 'req-1', msg: 'failed', level: 50, err: { message: 'boom' } },
    ]);
  });

  it('creates no child for a disabled level', () => {
    const { lines, stream } = capture();
    const parent = pino({ level: 'warn' }, stream);
    let children = 0;
    const counting = Object.assign(Object.create(parent), {
      child: (...args: Parameters<typeof parent.child>) => {
        children++;
        return parent.child(...args);
      },
    });
    const log = new LazyChildLogger(counting, { reqId: 'req-2' }, {});
    log.debug('quiet');
    log.info('quiet too');
    expect(children).toBe(0);
    expect(log.level).toBe('warn');
    expect(log.isLevelEnabled('debug')).toBe(false);
    log.warn('loud');
    expect(children).toBe(1);
    expect(lines).toMatchObject([{ reqId: 'req-2', msg: 'loud' }]);
  });

  it('honours a route-level log level', () => {
    const { lines, stream } = capture();
    const log = new LazyChildLogger(pino({ level: 'warn' }, stream), { reqId: 'r' }, { level: 'debug' });
    expect(log.level).toBe('debug');
    log.debug('route debug');
    expect(lines).toMatchObject([{ msg: 'route debug', level: 20 }]);
  });

  it('children carry the request bindings too', () => {
    const { lines, stream } = capture();
    const log = new LazyChildLogger(pino({ level: 'info' }, stream), { reqId: 'r3' }, {});
    log.child({ part: 'x' }).info('nested');
    expect(lines).toMatchObject([{ reqId: 'r3', part: 'x', msg: 'nested' }]);
  });
});
