import { SCOPES } from '../../../shared/vocabulary.js';
import { apiKeyPath } from '../../api-client/paths.js';
import { csv, UsageError } from '../cli.js';
import { describe, print } from '../output.js';
function parseScopes(value) {
    const scopes = csv(value);
    const unknown = scopes.filter((scope) => !SCOPES.includes(scope));
    if (unknown.length)
        throw new UsageError(`Unknown scope(s) ${unknown.join(', ')}; use ${SCOPES.join(', ')}`);
    return scopes;
}
const showCreated = (json, key) => print({ json }, {
    data: key,
    text: `${describe({ keyId: key.keyId, org: key.orgId ?? '(platform)', scopes: key.scopes.join(','), key: key.key })}\n\nStore the key now: it is not shown again.`,
});
export function registerKeyCommands(program, cli) {
    const keys = program.command('keys').description('issue, list and revoke API keys');
    keys
        .command('create')
        .description('issue a key for an org (--org), or a platform key with --admin --direct')
        .option('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, 'read')
        .option('--name <name>', 'a label to recognise the key by')
        .option('--admin', 'a platform key (all orgs); needs --direct')
        .option('--direct', 'write into the database directly (recovery; only when no daemon holds an embedded database)')
        .action(async (options, command) => {
        const json = cli.json(command);
        if (options.admin || options.direct) {
            if (!(options.admin && options.direct))
                throw new UsageError('--admin and --direct go together');
            // Loaded on demand: only this recovery path opens the database itself.
            const { createRecoveryKey } = await import('../daemon/recovery-key.js');
            await showCreated(json, await createRecoveryKey(options.name ?? 'recovery'));
            return;
        }
        const key = await cli.client(command).post(apiKeyPath(cli.org(command)), {
            scopes: parseScopes(options.scopes),
            name: options.name,
        });
        await showCreated(json, key);
    });
    keys
        .command('list')
        .description("list an org's keys (never their secrets)")
        .action(async (_options, command) => {
        const result = await cli.client(command).get(apiKeyPath(cli.org(command)));
        await cli.print(command, {
            data: result,
            table: {
                columns: ['KEY ID', 'NAME', 'SCOPES', 'CREATED', 'REVOKED'],
                rows: result.keys.map((key) => [
                    key.keyId,
                    key.name,
                    key.scopes.join(','),
                    key.createdAt,
                    key.revokedAt,
                ]),
            },
        });
    });
    keys
        .command('revoke <keyId>')
        .description('revoke a key; requests with it are refused from then on')
        .action(async (keyId, _options, command) => {
        await cli.client(command).delete(apiKeyPath(cli.org(command), keyId));
        await cli.print(command, { data: { keyId, revoked: true }, text: `Revoked ${keyId}` });
    });
}
//# sourceMappingURL=keys.command.js.map