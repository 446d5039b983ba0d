import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sidecarKeyPath } from '../../api-client/paths.js';
import { UsageError } from '../cli.js';
import { describe } from '../output.js';
/** The public key to register: a private key file is accepted too, and only its public half leaves. */
function readPublicKey(file) {
    let text;
    try {
        text = readFileSync(file, 'utf8');
    }
    catch (error) {
        throw new UsageError(`Cannot read ${file}: ${error.message}`);
    }
    if (!text.includes('PRIVATE KEY'))
        return text;
    try {
        return createPublicKey(createPrivateKey(text)).export({ format: 'pem', type: 'spki' }).toString();
    }
    catch {
        throw new UsageError(`${file} is not a readable private key`);
    }
}
export function registerSidecarCommands(program, cli) {
    const sidecars = program
        .command('sidecars')
        .description('the Ed25519 keys sidecars sign L2 attestations with (admin)');
    sidecars
        .command('register')
        .description('register a sidecar public key for --org')
        .requiredOption('--public-key <file>', 'PEM public key or base64 of its 32 raw bytes; a PEM private key works too (only its public half is sent)')
        .option('--key-id <id>', 'id to register under (default: derived from the key, as sidecars derive it)')
        .option('--name <name>', 'a label to recognise the sidecar by')
        .action(async (options, command) => {
        const key = await cli.client(command).post(sidecarKeyPath(cli.org(command)), {
            publicKey: readPublicKey(options.publicKey),
            keyId: options.keyId,
            name: options.name,
        });
        await cli.print(command, {
            data: key,
            text: describe({
                keyId: key.keyId,
                name: key.name,
                fingerprint: key.fingerprint,
                created: key.createdAt,
            }),
        });
    });
    sidecars
        .command('list')
        .description("list an org's sidecar keys, revoked ones included")
        .action(async (_options, command) => {
        const result = await cli
            .client(command)
            .get(sidecarKeyPath(cli.org(command)));
        await cli.print(command, {
            data: result,
            table: {
                columns: ['KEY ID', 'NAME', 'FINGERPRINT', 'CREATED', 'REVOKED'],
                rows: result.sidecarKeys.map((key) => [
                    key.keyId,
                    key.name,
                    key.fingerprint,
                    key.createdAt,
                    key.revokedAt,
                ]),
            },
        });
    });
    sidecars
        .command('revoke <keyId>')
        .description('revoke a sidecar key: L2 attestations it signs are refused from then on')
        .action(async (keyId, _options, command) => {
        await cli.client(command).delete(sidecarKeyPath(cli.org(command), keyId));
        await cli.print(command, { data: { keyId, revoked: true }, text: `Revoked ${keyId}` });
    });
}
//# sourceMappingURL=sidecars.command.js.map