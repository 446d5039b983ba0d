// First import: refuses to run on a Node older than 22.17 before anything else loads.
import '../scripts/require-node.mjs';
import { enableCompileCache } from 'node:module';
// V8's compiled code of every module is kept on disk (in the OS temp directory, or NODE_COMPILE_CACHE),
// so that later starts load the CLI and the daemon without compiling them again. The rest is imported
// after this call: static imports would all be compiled before it ran.
enableCompileCache();
const { runCli } = await import('../src/clients/cli/main.js');
await runCli(process.argv);
//# sourceMappingURL=comply.js.map