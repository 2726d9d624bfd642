// `prepack`: the package carries the built web funnel (web/), so an installed server serves it at `/`
// in development. The page has no certificate key in it; production builds its own (docs/web.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const built = path.resolve(pkg, '../../apps/web/dist');
const target = path.join(pkg, 'web');
fs.rmSync(target, { recursive: true, force: true });
if (!fs.existsSync(path.join(built, 'index.html'))) {
  process.stderr.write('@ferry/server: apps/web/dist is not built (npm run build); packing without the web funnel.\n');
} else {
  fs.cpSync(built, target, { recursive: true, filter: (file) => !file.endsWith('.map') });
}
