import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runComply } from '../support/daemon.js';

/**
 * What a command loads before it does anything: `--help` and the commands that only call the daemon load
 * commander, the API client and the command modules, never the daemon, the MCP SDK, the gate's validator or
 * ink/React (each is imported by the command that uses it, when it runs). Pinned by the modules the process
 * loads, recorded by a preloaded hook (module-trace.mjs), not by how long it takes.
 */

const TRACE = pathToFileURL(path.join(import.meta.dirname, 'module-trace.mjs')).href;
const dir = mkdtempSync(path.join(tmpdir(), 'comply-startup-'));

/** The modules `comply ...args` loaded: npm packages by name, our own modules by path under dist/. */
async function loadedBy(args: string[]) {
  const file = path.join(dir, `trace-${args.join('-').replace(/[^\w-]/g, '_')}.txt`);
  const result = await runComply(args, {
    // Nothing listens on port 9: the commands that call the daemon stop at the connection.
    COMPLY_URL: 'http://127.0.0.1:9',
    COMPLY_API_KEY: 'k',
    COMPLY_ORG: 'acme',
    NODE_OPTIONS: `--import ${TRACE}`,
    COMPLY_MODULE_TRACE: file,
  });
  const urls = readFileSync(file, 'utf8').split('\n');
  const packages = new Set(
    urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []),
  );
  const own = urls.flatMap((url) => /\/dist\/(src\/.+)$/.exec(url)?.[1] ?? []);
  return { result, packages, own, urls };
}

/** What no command should pay for unless it uses it. */
const HEAVY = [
  '@modelcontextprotocol/sdk',
  'zod',
  'ink',
  'react',
  'ajv',
  'typebox',
  'fastify',
  '@mikro-orm/core',
  '@huggingface/transformers',
  'pdfkit',
  'bullmq',
];
const SERVER = /^src\/(app|server|worker|features|platform|records)[./]/;

describe('the start-up of a command: only what it uses is loaded', { timeout: 60_000 }, () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['--help']],
    [['mcp', '--help']],
    [['check', '--help']],
    [['score', '--json']],
    [['controls', 'status', 'A.2.2', 'implemented', '--reviewer', 'dana']],
  ])('comply %j loads neither the daemon, the MCP SDK, the validator nor ink', async (args) => {
    const { result, packages, own } = await loadedBy(args);
    expect(result.code, result.stderr).toBe(args.includes('--help') ? 0 : 3);
    expect(packages).toContain('commander');
    expect(own).toContain('src/clients/cli/main.js');
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
    expect(own.filter((module) => SERVER.test(module))).toEqual([]);
    expect(own.filter((module) => module.startsWith('src/clients/mcp/'))).toEqual([]);
  });

  it('a command loads what it uses when it runs (the trace sees lazy imports)', async () => {
    const { result, packages, own, urls } = await loadedBy(['check', '--min-score', 'iso-42001=80']);
    expect(result.code, result.stderr).toBe(3);
    expect(own).toContain('src/clients/gate/rules.js');
    expect(own).toContain('src/clients/gate/policy.validator.js');
    expect(packages).not.toContain('@modelcontextprotocol/sdk');
    // The policy's validator is compiled ahead of time: neither the schema library nor Ajv's compiler loads,
    // only the two helpers the compiled code calls.
    expect(packages).not.toContain('typebox');
    const ajvModules = urls.flatMap((url) => /\/node_modules\/ajv\/(.+)$/.exec(url)?.[1] ?? []);
    expect(ajvModules.sort()).toEqual(['dist/runtime/equal.js', 'dist/runtime/ucs2length.js']);
  });
});
