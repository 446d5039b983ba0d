import { Option } from 'commander';
import { REQUIREMENT_STATUSES } from '../../../shared/vocabulary.js';
import { requirementPath } from '../../api-client/paths.js';
import { UsageError } from '../cli.js';
import { showRequirement } from '../views/requirement-view.js';
/** Exactly one change per call, with the options that change needs and none that it would ignore. */
function changeOf(options) {
    const chosen = [
        options.status !== undefined && '--status',
        options.notApplicable && '--not-applicable',
        options.applicable && '--applicable',
        options.withdraw && '--withdraw',
    ].filter((flag) => typeof flag === 'string');
    if (chosen.length !== 1) {
        throw new UsageError(`Pass exactly one of --status, --not-applicable, --applicable or --withdraw${chosen.length ? ` (got ${chosen.join(' and ')})` : ''}`);
    }
    const { reviewer, justification, note, owner } = options;
    const refuse = (given, why) => {
        const flags = given.filter((flag) => typeof flag === 'string');
        if (flags.length)
            throw new UsageError(`${flags.join(' and ')} cannot be used with ${chosen[0]}: ${why}`);
    };
    if (options.withdraw) {
        refuse([
            reviewer !== undefined && '--reviewer',
            justification !== undefined && '--justification',
            note !== undefined && '--note',
            owner !== undefined && '--owner',
        ], 'a withdrawal is logged against the API key, and owner, note and evidence stay');
        return { kind: 'withdraw' };
    }
    if (reviewer === undefined)
        throw new UsageError(`${chosen[0]} needs --reviewer <user>: who decided`);
    if (options.status !== undefined) {
        refuse([justification !== undefined && '--justification'], 'a justification goes with --applicable or --not-applicable; explain a status with --note');
        return { kind: 'status', body: { status: options.status, reviewer, note, owner } };
    }
    refuse([note !== undefined && '--note', owner !== undefined && '--owner'], 'note and owner go with --status; explain applicability with --justification');
    if (justification === undefined) {
        throw new UsageError(`${chosen[0]} needs --justification <text>: an auditor asks why`);
    }
    return {
        kind: 'applicability',
        body: { applicable: Boolean(options.applicable), justification, reviewer },
    };
}
export function registerAssessCommand(program, cli) {
    program
        .command('assess <frameworkId> <requirementId>')
        .description("record the org's own judgement on a requirement of any framework; a direct record always wins over what the crosswalk infers")
        .addOption(new Option('--status <status>', 'set the status').choices(REQUIREMENT_STATUSES))
        .option('--not-applicable', 'mark it out of scope (needs --justification)')
        .option('--applicable', 'mark it in scope again (needs --justification)')
        .option('--withdraw', "withdraw the org's status and applicability: fall back to what the crosswalk infers")
        .option('--reviewer <user>', 'who decided (required, except with --withdraw)')
        .option('--justification <text>', 'why it does or does not apply (with --applicable or --not-applicable)')
        .option('--note <text>', 'why, for the change log (with --status)')
        .option('--owner <user>', 'who is responsible for it (with --status)')
        .addHelpText('after', `
Pass exactly one of --status, --not-applicable, --applicable or --withdraw. Quote requirement ids
that contain spaces or parentheses. ISO/IEC 42001 controls (iso-42001) always keep their record, so
--withdraw is refused for them.

Example:
  $ comply assess eu-ai-act "Art. 26(6)" --status implemented --reviewer alice --owner ops
  $ comply assess gdpr "Art. 22" --not-applicable --justification "no automated decisions" --reviewer bob
  $ comply assess gdpr "Art. 22" --applicable --justification "credit scoring launched" --reviewer bob
  $ comply assess nist-ai-rmf "GOVERN 1.1" --withdraw`)
        .action(async (frameworkId, requirementId, options, command) => {
        const change = changeOf(options);
        const client = cli.client(command);
        const path = (suffix) => requirementPath(cli.org(command), frameworkId, requirementId, suffix);
        const entry = change.kind === 'withdraw'
            ? await client.delete(path('/assessment'))
            : await client.put(path(`/${change.kind}`), change.body);
        await showRequirement(cli.json(command), entry);
    });
}
//# sourceMappingURL=assess.command.js.map