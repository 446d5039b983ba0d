export {};
//# sourceMappingURL=jobs.js.map