import { readFileSync } from 'node:fs';
import { Option } from 'commander';
import { ApiError, ConnectionError } from '../../api-client/client.js';
import { AttestationClient, AttestationPostError, buildAttestation, signAttestation, } from '../../sidecar/client.js';
import { csv, parseInteger, UsageError } from '../cli.js';
import { recordText } from './attestations.command.js';
function readText(file) {
    try {
        return readFileSync(file === '-' ? 0 : file, 'utf8');
    }
    catch (error) {
        throw new UsageError(`Cannot read ${file}: ${error.message}`);
    }
}
function readClaims(file) {
    if (file === undefined)
        return {};
    let claims;
    try {
        claims = JSON.parse(readText(file));
    }
    catch (error) {
        if (error instanceof UsageError)
            throw error;
        throw new UsageError(`${file} is not JSON: ${error.message}`);
    }
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
        throw new UsageError(`${file} must hold a JSON object`);
    }
    return claims;
}
function buildBody(options) {
    if (!options.control?.length)
        throw new UsageError('Name at least one --control');
    if (options.level === 'L2' && !options.key)
        throw new UsageError('An L2 attestation is signed: pass --key <file>');
    if (options.level === 'L0' && options.key)
        throw new UsageError('An L0 attestation is unsigned: drop --key');
    const attestation = buildAttestation({
        attestationId: options.id,
        level: options.level,
        epochId: options.epoch,
        systemId: options.system,
        controlIds: options.control,
        timestamp: options.timestamp,
        claims: readClaims(options.claims),
    });
    if (!options.key)
        return attestation;
    try {
        return signAttestation(attestation, { keyId: options.keyId, privateKey: readText(options.key) });
    }
    catch (error) {
        throw new UsageError(`Cannot sign with ${options.key}: ${error.message}`);
    }
}
export function registerAttestCommand(program, cli) {
    program
        .command('attest')
        .description('sign (L2) and post an attestation for --org exactly as a sidecar does; retries reuse its attestationId')
        .addOption(new Option('--level <level>', 'L2 signed, L0 self-report').choices(['L0', 'L2']).default('L2'))
        .option('--key <file>', 'Ed25519 private key (PEM) that signs an L2 attestation')
        .option('--key-id <id>', 'the id the key was registered under (default: derived from the key)')
        .requiredOption('--epoch <epochId>', 'epoch the attestation belongs to')
        .option('--control <controlId>', 'control it is evidence for (repeat, or comma-separate)', (value, previous) => [...(previous ?? []), ...csv(value)])
        .option('--claims <file>', 'JSON object of claims ("-" reads stdin)')
        .option('--system <systemId>', 'AI system it is about: its systemId or its name')
        .option('--id <attestationId>', 'attestation id (default: a random UUID)')
        .option('--timestamp <iso>', 'when it was observed, ISO 8601 UTC with milliseconds (default: now)')
        .option('--retries <n>', 'further attempts on network errors, 429 and 5xx', parseInteger, 5)
        .action(async (options, command) => {
        const apiKey = cli.apiKey(command);
        if (!apiKey)
            throw new UsageError('No API key: pass --api-key or set COMPLY_API_KEY (scope attest)');
        const client = new AttestationClient({
            baseUrl: cli.client(command).baseUrl,
            apiKey,
            orgId: cli.org(command),
            retries: options.retries,
        });
        const body = buildBody(options);
        let result;
        try {
            result = await client.post(body);
        }
        catch (error) {
            if (!(error instanceof AttestationPostError))
                throw error;
            // The CLI's own error types carry exit codes: 3 unreachable, 1 refused.
            if (error.status === null)
                throw new ConnectionError(error.message);
            throw new ApiError(error.status, error.code ?? `HTTP_${error.status}`, error.message, error.details);
        }
        await cli.print(command, {
            data: result.attestation,
            text: recordText(result.attestation, {
                result: result.created ? 'stored (201)' : 'already stored (200)',
                attempts: result.attempts,
            }),
        });
    });
}
//# sourceMappingURL=attest.command.js.map