// `prepack`: the package carries the built release console (console/), so an installed server serves
// it at /console/. It holds no secret: operators sign in with their own tokens.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const built = path.resolve(pkg, '../../apps/console/dist');
const target = path.join(pkg, 'console');
fs.rmSync(target, { recursive: true, force: true });
if (!fs.existsSync(path.join(built, 'index.html'))) {
  process.stderr.write('@ferry/server: apps/console/dist is not built (npm run build); packing without the console.\n');
} else {
  fs.cpSync(built, target, { recursive: true, filter: (file) => !file.endsWith('.map') });
}
