// First import: refuses to run on a Node older than 22.17 before anything else loads.
import '../scripts/require-node.mjs';
import { runCli } from '../src/cli/main.js';
await runCli(process.argv);
//# sourceMappingURL=comply.js.map