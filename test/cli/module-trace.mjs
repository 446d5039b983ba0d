// Preloaded with NODE_OPTIONS="--import <this file>": records the URL of every module the process loads
// and writes them, one a line, to the file COMPLY_MODULE_TRACE names when the process exits.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  if (process.env.COMPLY_MODULE_TRACE) writeFileSync(process.env.COMPLY_MODULE_TRACE, [...loaded].join('\n'));
});
