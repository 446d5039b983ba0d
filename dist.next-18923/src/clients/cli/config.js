export function loadCliConfig(env = process.env) {
    return {
        url: env.COMPLY_URL || 'http://127.0.0.1:8080',
        apiKey: env.COMPLY_API_KEY || undefined,
        org: env.COMPLY_ORG || undefined,
    };
}
//# sourceMappingURL=config.js.map