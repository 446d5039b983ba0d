import { score as percent } from '../../api-client/format.js';
import { compliancePath, snapshotPath } from '../../api-client/paths.js';
import { describe, print } from '../output.js';
export function registerSnapshotCommands(program, cli) {
    const snapshot = program.command('snapshot').description('immutable, content-hashed snapshots for audits');
    snapshot
        .command('create <label>')
        .description('freeze the current state of every control and its evidence under a label')
        .option('--notes <text>', 'why it was taken')
        .action(async (label, options, command) => {
        const created = await cli
            .client(command)
            .post(compliancePath(cli.org(command), '/snapshot'), {
            label,
            notes: options.notes,
        });
        await cli.print(command, {
            data: created,
            text: describe({
                snapshotId: created.snapshotId,
                label: created.label,
                created: created.createdAt,
                score: percent(created.score),
                controls: created.controls.length,
                sha256: created.contentHash,
            }),
        });
    });
    snapshot
        .command('list')
        .description('snapshots of --org, newest first')
        .action(async (_options, command) => {
        const result = await cli
            .client(command)
            .get(snapshotPath(cli.org(command)), {
            limit: 200,
        });
        await cli.print(command, {
            data: result,
            table: {
                columns: ['ID', 'CREATED', 'SCORE', 'LABEL'],
                rows: result.snapshots.map((s) => [s.snapshotId, s.createdAt, percent(s.score), s.label]),
            },
        });
    });
    snapshot
        .command('show <snapshotId>')
        .description('one snapshot: its summary, hash check and every control')
        .action(async (snapshotId, _options, command) => {
        const client = cli.client(command);
        const path = snapshotPath(cli.org(command), snapshotId);
        const shown = await client.get(path);
        if (cli.json(command)) {
            await print({ json: true }, { data: shown });
            return;
        }
        const check = await client.get(`${path}/verify`);
        await print({ json: false }, {
            data: shown,
            text: `${describe({
                snapshotId: shown.snapshotId,
                label: shown.label,
                notes: shown.notes,
                created: shown.createdAt,
                score: percent(shown.score),
                sha256: shown.contentHash,
                intact: check.valid ? 'yes (content matches its hash)' : 'NO: content does not match its hash',
            })}\n`,
            table: {
                columns: ['CONTROL', 'STATUS', 'APPLICABLE', 'EVIDENCE', 'TITLE'],
                rows: shown.controls.map((c) => [
                    c.controlId,
                    c.status,
                    c.applicable ? 'yes' : 'no',
                    c.evidenceCount,
                    c.title,
                ]),
            },
        });
        if (!check.valid)
            process.exitCode = 1;
    });
    snapshot
        .command('verify <snapshotId>')
        .description('recompute the content hash on the server; exits 1 if the content no longer matches')
        .action(async (snapshotId, _options, command) => {
        const check = await cli
            .client(command)
            .get(snapshotPath(cli.org(command), snapshotId, '/verify'));
        await cli.print(command, {
            data: check,
            text: check.valid
                ? `intact  ${check.contentHash}`
                : `ALTERED  recorded ${check.contentHash}, now ${check.computedHash}`,
        });
        if (!check.valid)
            process.exitCode = 1;
    });
}
//# sourceMappingURL=snapshot.command.js.map