import { InvalidArgumentError } from 'commander';
import { ApiClient } from '../api-client/client.js';
import { print, withProgress } from './output.js';
export class UsageError extends Error {
}
/** The command could not do what was asked (a data directory another process holds, say): exit 1. */
export class CommandRefusedError extends Error {
}
export function createCli(config) {
    const globals = (command) => command.optsWithGlobals();
    return {
        client: (command, { progress = true } = {}) => new ApiClient(globals(command).url ?? config.url, globals(command).apiKey ?? config.apiKey, progress
            ? (label, work) => withProgress({ json: Boolean(globals(command).json) }, label, work)
            : undefined),
        apiKey: (command) => globals(command).apiKey ?? config.apiKey,
        json: (command) => Boolean(globals(command).json),
        print: (command, result) => print({ json: Boolean(globals(command).json) }, result),
        optionalOrg: (command) => globals(command).org ?? config.org,
        org: (command) => {
            const org = globals(command).org ?? config.org;
            if (!org)
                throw new UsageError('No organization given: pass --org <orgId> or set COMPLY_ORG');
            return org;
        },
    };
}
export function parseInteger(value) {
    const parsed = Number(value);
    if (!Number.isInteger(parsed))
        throw new InvalidArgumentError('expected an integer');
    return parsed;
}
export function parseBoolean(value) {
    if (['true', 'yes', '1'].includes(value.toLowerCase()))
        return true;
    if (['false', 'no', '0'].includes(value.toLowerCase()))
        return false;
    throw new InvalidArgumentError('expected true or false');
}
export const csv = (value) => value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
//# sourceMappingURL=cli.js.map