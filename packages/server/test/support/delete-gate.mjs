/**
 * Loaded with `--import` into a server child process (asset-gc-crash.test.ts), before the server's
 * own modules. It lets the first FERRY_TEST_HOLD_DELETES_AFTER object deletions through and holds
 * every later one forever, printing one line once those are done and another is held: the test
 * then knows exactly how far the collection got, with deletions in flight, and kills it there. Deletions are
 * counted where each adapter makes them: the local store's removal of a data file, and the S3
 * client's DeleteObject. Nothing else is changed; without the variable this module does nothing.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';

const holdAfter = Number(process.env.FERRY_TEST_HOLD_DELETES_AFTER);

if (Number.isInteger(holdAfter) && holdAfter >= 0) {
  let admitted = 0;
  let finished = 0;
  let holding = false;
  let announced = false;
  // Announced once a deletion is held and every admitted one has finished: exactly `holdAfter`
  // deletions are then done, and the held ones are in flight.
  const announce = () => {
    if (announced || !holding || finished < admitted) return;
    announced = true;
    process.stdout.write(`${JSON.stringify({ msg: `ferry-test: deletions held after ${finished}` })}\n`);
  };
  const gated = (deletion) => {
    if (admitted >= holdAfter) {
      holding = true;
      announce();
      return new Promise(() => {});
    }
    admitted++;
    const running = deletion();
    running.then(
      () => {
        finished++;
        announce();
      },
      () => {
        finished++;
        announce();
      },
    );
    return running;
  };

  const dataRoot = path.join(path.resolve(process.env.DATA_DIR ?? './data'), 'objects', 'data') + path.sep;
  const rm = fsp.rm;
  fsp.rm = function gatedRm(target, ...rest) {
    if (!String(target).startsWith(dataRoot)) return rm.call(this, target, ...rest);
    return gated(() => rm.call(this, target, ...rest));
  };

  if (process.env.OBJECT_STORE_URL?.startsWith('s3://')) {
    const { DeleteObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const send = S3Client.prototype.send;
    S3Client.prototype.send = function gatedSend(command, ...rest) {
      if (!(command instanceof DeleteObjectCommand)) return send.call(this, command, ...rest);
      return gated(() => send.call(this, command, ...rest));
    };
  }
}
